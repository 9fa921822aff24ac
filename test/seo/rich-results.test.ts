// Item pages describe what the collection holds: a shop's products as Product with an Offer, a
// job board's jobs as JobPosting, events and recipes when chosen. Each JSON-LD is checked against
// a shape of Google's required properties, written from Google Search Central:
//   Product (merchant listing): https://developers.google.com/search/docs/appearance/structured-data/merchant-listing
//   JobPosting: https://developers.google.com/search/docs/appearance/structured-data/job-posting
//   Event: https://developers.google.com/search/docs/appearance/structured-data/event
//   Recipe: https://developers.google.com/search/docs/appearance/structured-data/recipe
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ORIGIN, addItem, callJson, expectStatus, newSite, putCollection, type TestSite } from "../helpers";
import { capture, pathOf, putPage, rendered } from "../ssr-helpers";

const ISO = z.string().regex(/^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d))?$/);
const SCHEMA_URL = (names: string[]) => z.enum(names.map((n) => `https://schema.org/${n}`) as [string, ...string[]]);

// Google: name, image and offers (price, priceCurrency) are required for merchant listings.
const MerchantListing = z.looseObject({
  "@context": z.literal("https://schema.org"),
  "@type": z.literal("Product"),
  name: z.string().min(1),
  image: z.union([z.string().url(), z.array(z.string().url()).min(1)]),
  offers: z.looseObject({
    "@type": z.literal("Offer"),
    price: z.union([z.string().regex(/^\d+(\.\d+)?$/), z.number()]),
    priceCurrency: z.string().regex(/^[A-Z]{3}$/),
    availability: SCHEMA_URL([
      "InStock",
      "OutOfStock",
      "LimitedAvailability",
      "PreOrder",
      "BackOrder",
      "Discontinued",
      "MadeToOrder",
    ]).optional(),
  }),
});

// Google: datePosted, description, hiringOrganization, jobLocation (or, for a remote job,
// jobLocationType TELECOMMUTE with applicantLocationRequirements) and title are required.
const JobPostingShape = z
  .looseObject({
    "@type": z.literal("JobPosting"),
    title: z.string().min(1),
    description: z.string().min(1),
    datePosted: ISO,
    hiringOrganization: z.looseObject({ "@type": z.literal("Organization"), name: z.string().min(1) }),
    jobLocation: z
      .looseObject({
        "@type": z.literal("Place"),
        address: z.looseObject({ "@type": z.literal("PostalAddress"), addressLocality: z.string().min(1) }),
      })
      .optional(),
    jobLocationType: z.literal("TELECOMMUTE").optional(),
    applicantLocationRequirements: z.looseObject({ "@type": z.literal("Country"), name: z.string().min(1) }).optional(),
    employmentType: z.enum(["FULL_TIME", "PART_TIME", "CONTRACTOR", "TEMPORARY", "INTERN", "VOLUNTEER", "PER_DIEM", "OTHER"]).optional(),
    validThrough: ISO.optional(),
    baseSalary: z
      .looseObject({
        "@type": z.literal("MonetaryAmount"),
        currency: z.string().regex(/^[A-Z]{3}$/),
        value: z.looseObject({ "@type": z.literal("QuantitativeValue"), unitText: z.enum(["HOUR", "DAY", "WEEK", "MONTH", "YEAR"]) }),
      })
      .optional(),
  })
  .refine((j) => j.jobLocation !== undefined || (j.jobLocationType === "TELECOMMUTE" && j.applicantLocationRequirements !== undefined), {
    message: "an office (jobLocation) or, remote, the countries applicants may live in",
  });

/** The item JSON-LD of a rendered page (the one that is not the breadcrumbs). */
async function itemJsonLd(site: TestSite, path: string): Promise<Record<string, unknown> | undefined> {
  const res = await rendered(site, path);
  expect(res.status, path).toBe(200);
  const html = await res.text();
  const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
  expect(JSON.stringify(blocks)).not.toContain("null");
  return blocks.find((b) => b["@type"] !== "BreadcrumbList");
}

/** A site on the SEO Engine plan whose captured page lists `collection`. */
async function capturedSite(collection: string, fields: Record<string, unknown>[]): Promise<{ site: TestSite; base: string }> {
  const site = await newSite("seo_engine");
  await putCollection(site, collection, { name: collection, fields });
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body>
    <div data-oc-list="${collection}"><article><a data-oc-link><h2 data-oc-field="${String(fields[0]!["key"])}">Name</h2></a></article></div>
    <script src="${ORIGIN}/embed.js" data-oc-token="${site.token}" defer></script></body></html>`;
  const pageUrl = await putPage(html, { path: `/s-${crypto.randomUUID().slice(0, 8)}/${collection}/` });
  await expectStatus(
    capture(site, { pageUrl, publicUrl: `https://shop.example.com${pathOf(pageUrl)}`, collection, seo: { publisher: "Acme" } }),
    201,
  );
  return { site, base: pathOf(pageUrl) };
}

const report = async (site: TestSite) =>
  (
    await expectStatus(
      callJson<{
        richResults: {
          type: string;
          chosen: boolean;
          items: { checked: number; eligible: number };
          notEligible: { slug: string; missing: string[] }[];
          properties: { path: string; field: string | null }[];
        };
      }>("GET", `/sites/${site.id}/ssr/rich-results`, { auth: site.adminKey }),
      200,
    )
  ).richResults;

const SHOP_FIELDS = [
  { key: "name", type: "text", required: true },
  { key: "price", type: "decimal", currency: "EUR" },
  {
    key: "availability",
    type: "option",
    options: [
      { value: "in-stock", label: "In stock" },
      { value: "sold-out", label: "Sold out" },
    ],
  },
  { key: "photo", type: "image" },
  { key: "description", type: "richText" },
  { key: "brand", type: "text" },
];

describe("rich results", () => {
  it("describes a shop's product as a Product with its Offer, with no setup", async () => {
    const { site, base } = await capturedSite("products", SHOP_FIELDS);
    await addItem(site, "products", {
      slug: "oak-planter",
      publish: true,
      data: {
        name: "Oak planter </script><b>",
        price: "34.90",
        availability: "sold-out",
        photo: { url: "https://cdn.example.com/oak.jpg", alt: "Oak planter", width: 800, height: 600 },
        description: "<p>Solid oak, oiled by hand.</p>",
        brand: "Woodworks",
      },
    });
    const ld = await itemJsonLd(site, `${base}oak-planter`);
    expect(MerchantListing.safeParse(ld).error?.issues ?? []).toEqual([]);
    expect(ld).toMatchObject({
      "@type": "Product",
      name: "Oak planter </script><b>",
      image: ["https://cdn.example.com/oak.jpg"],
      description: "Solid oak, oiled by hand.",
      brand: { "@type": "Brand", name: "Woodworks" },
      url: `https://shop.example.com${base}oak-planter`,
      offers: {
        "@type": "Offer",
        price: "34.90",
        priceCurrency: "EUR",
        availability: "https://schema.org/OutOfStock",
        url: `https://shop.example.com${base}oak-planter`,
      },
    });

    // A product without a price or photo is named, with what it lacks, and sends no empty Offer.
    await addItem(site, "products", { slug: "gift-card", publish: true, data: { name: "Gift card" } });
    const gift = await itemJsonLd(site, `${base}gift-card`);
    expect(gift?.["offers"]).toBeUndefined();
    const r = await report(site);
    expect(r).toMatchObject({ type: "Product", chosen: false, items: { checked: 2, eligible: 1 } });
    expect(r.notEligible).toEqual([
      expect.objectContaining({ slug: "gift-card", missing: ["image", "offers.price", "offers.priceCurrency"] }),
    ]);
    expect(r.properties.find((p) => p.path === "offers.price")?.field).toBe("price");
  });

  it("describes a job board's job as a JobPosting, an office job and a remote one", async () => {
    const { site, base } = await capturedSite("jobs", [
      { key: "title", type: "text", required: true },
      { key: "company", type: "text" },
      { key: "location", type: "text" },
      { key: "country", type: "text" },
      { key: "salaryFrom", type: "decimal", currency: "EUR" },
      { key: "salaryTo", type: "decimal", currency: "EUR" },
      {
        key: "employmentType",
        type: "option",
        options: [
          { value: "full-time", label: "Full-time" },
          { value: "part-time", label: "Part-time" },
        ],
      },
      { key: "remote", type: "boolean" },
      { key: "closes", type: "date" },
      { key: "body", type: "richText" },
    ]);
    await addItem(site, "jobs", {
      slug: "backend-engineer",
      publish: true,
      data: {
        title: "Backend engineer",
        company: "Acme",
        location: "Lyon",
        country: "FR",
        salaryFrom: "45000",
        salaryTo: "60000",
        employmentType: "full-time",
        remote: false,
        closes: "2026-12-31",
        body: "<p>Build the API.</p><ul><li>TypeScript</li></ul>",
      },
    });
    const office = await itemJsonLd(site, `${base}backend-engineer`);
    expect(JobPostingShape.safeParse(office).error?.issues ?? []).toEqual([]);
    expect(office).toMatchObject({
      title: "Backend engineer",
      description: "<p>Build the API.</p><ul><li>TypeScript</li></ul>",
      hiringOrganization: { "@type": "Organization", name: "Acme" },
      jobLocation: { "@type": "Place", address: { "@type": "PostalAddress", addressLocality: "Lyon", addressCountry: "FR" } },
      baseSalary: {
        "@type": "MonetaryAmount",
        currency: "EUR",
        value: { "@type": "QuantitativeValue", minValue: "45000", maxValue: "60000", unitText: "YEAR" },
      },
      employmentType: "FULL_TIME",
      validThrough: "2026-12-31T00:00:00.000Z",
    });
    expect(office?.["datePosted"]).toMatch(/^\d{4}-\d\d-\d\dT/);

    await addItem(site, "jobs", {
      slug: "support-lead",
      publish: true,
      data: {
        title: "Support lead",
        company: "Acme",
        country: "DE",
        remote: true,
        employmentType: "part-time",
        body: "<p>Help customers.</p>",
      },
    });
    const remote = await itemJsonLd(site, `${base}support-lead`);
    expect(JobPostingShape.safeParse(remote).error?.issues ?? []).toEqual([]);
    expect(remote).toMatchObject({ jobLocationType: "TELECOMMUTE", applicantLocationRequirements: { "@type": "Country", name: "DE" } });
    expect(remote?.["jobLocation"]).toBeUndefined();

    // Remote without the countries it hires in: named as missing, not sent half-made.
    await addItem(site, "jobs", {
      slug: "anywhere",
      publish: true,
      data: { title: "Anywhere", company: "Acme", remote: true, body: "<p>Work.</p>" },
    });
    const r = await report(site);
    expect(r).toMatchObject({ type: "JobPosting", items: { checked: 3, eligible: 2 } });
    expect(r.notEligible).toEqual([expect.objectContaining({ slug: "anywhere", missing: ["jobLocation.address.addressCountry"] })]);
  });

  it("takes the owner's type and fields, refuses ones that cannot fit, and writes none for `none`", async () => {
    const { site, base } = await capturedSite("events", [
      { key: "title", type: "text", required: true },
      { key: "when", type: "date" },
      { key: "hall", type: "text" },
      { key: "poster", type: "image" },
    ]);
    await addItem(site, "events", {
      slug: "spring-fair",
      publish: true,
      data: { title: "Spring fair", when: "2027-04-10T10:00:00+02:00", hall: "Town hall" },
    });
    const put = (body: unknown) => callJson("PUT", `/sites/${site.id}/ssr/rich-results`, { auth: site.adminKey, body });

    const wrong = await put({ type: "Event", fields: { startDate: "hall" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: { code: "bad_request", details: { path: "fields.startDate" } } });
    expect((await put({ type: "Event", fields: { "offers.nope": "hall" } })).status).toBe(400);

    const saved = await put({ type: "Event", fields: { startDate: "when", "location.name": "hall" } });
    expect(saved.status).toBe(200);
    const ld = await itemJsonLd(site, `${base}spring-fair`);
    expect(ld).toMatchObject({
      "@type": "Event",
      name: "Spring fair",
      startDate: "2027-04-10T08:00:00.000Z",
      location: { "@type": "Place", name: "Town hall" },
    });

    await expectStatus(put({ type: "none" }), 200);
    expect(await itemJsonLd(site, `${base}spring-fair`)).toBeUndefined();
  });

  it("describes a recipe with its ingredients, steps and times", async () => {
    const { site, base } = await capturedSite("recipes", [
      { key: "title", type: "text", required: true },
      { key: "photo", type: "image" },
      { key: "ingredients", type: "text" },
      { key: "method", type: "richText" },
      { key: "prepTime", type: "number" },
      { key: "cookTime", type: "number" },
    ]);
    await addItem(site, "recipes", {
      slug: "soda-bread",
      publish: true,
      data: {
        title: "Soda bread",
        photo: { url: "https://cdn.example.com/bread.jpg", alt: "" },
        ingredients: "500 g flour\n1 tsp soda\n400 ml buttermilk",
        method: "<ol><li>Mix.</li><li>Bake 40 minutes.</li></ol>",
        prepTime: 10,
        cookTime: 90,
      },
    });
    const ld = await itemJsonLd(site, `${base}soda-bread`);
    expect(ld).toMatchObject({
      "@type": "Recipe",
      name: "Soda bread",
      image: ["https://cdn.example.com/bread.jpg"],
      recipeIngredient: ["500 g flour", "1 tsp soda", "400 ml buttermilk"],
      recipeInstructions: [
        { "@type": "HowToStep", text: "Mix." },
        { "@type": "HowToStep", text: "Bake 40 minutes." },
      ],
      prepTime: "PT10M",
      cookTime: "PT1H30M",
    });
  });
  it("says a job past its closing date has expired, and keeps it out of search when the owner chooses", async () => {
    const { site, base } = await capturedSite("jobs", [
      { key: "title", type: "text", required: true },
      { key: "company", type: "text" },
      { key: "location", type: "text" },
      { key: "closes", type: "date" },
      { key: "body", type: "richText" },
    ]);
    const job = (slug: string, closes: string, publish = true) =>
      addItem(site, "jobs", {
        slug,
        publish,
        data: { title: slug, company: "Acme", location: "Lyon", closes, body: "<p>Work.</p>" },
      });
    const today = new Date().toISOString().slice(0, 10);
    await job("closed-last-year", "2025-06-30");
    // A job closing today takes applications until the day is over.
    await job("closes-today", today);
    const draft = await job("draft-closed", "2025-01-31", false);

    const r = await report(site);
    expect(r).toMatchObject({ items: { checked: 2, eligible: 1, expired: 1 }, expiredNoindex: false });
    expect(r.notEligible).toEqual([expect.objectContaining({ slug: "closed-last-year", missing: [], expired: true })]);
    const closed = await rendered(site, `${base}closed-last-year`);
    expect(closed.headers.get("x-robots-tag")).toBeNull();

    const auth = site.adminKey;
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/ssr/rich-results`, { auth, body: { type: "JobPosting", expiredNoindex: true } }),
      200,
    );
    // Choosing the type again alone keeps the setting.
    const again = await expectStatus(
      callJson<{ richResults: { expiredNoindex: boolean } }>("PUT", `/sites/${site.id}/ssr/rich-results`, {
        auth,
        body: { type: "JobPosting" },
      }),
      200,
    );
    expect(again.richResults.expiredNoindex).toBe(true);
    const hidden = await rendered(site, `${base}closed-last-year`);
    expect(hidden.status).toBe(200);
    expect(hidden.headers.get("x-robots-tag")).toBe("noindex");
    expect(await hidden.text()).toContain('<meta name="robots" content="noindex">');
    const open = await rendered(site, `${base}closes-today`);
    expect(open.headers.get("x-robots-tag")).toBeNull();
    expect(await open.text()).not.toContain('name="robots"');

    // The crawler preview's item, a draft included, is checked on its own.
    const one = await expectStatus(
      callJson<{ richResults: { item: { slug: string; eligible: boolean; expired: boolean; missing: string[] } } }>(
        "GET",
        `/sites/${site.id}/ssr/rich-results?item=${draft.id}`,
        { auth },
      ),
      200,
    );
    // A draft has no publish time yet: its posting date comes with publishing.
    expect(one.richResults.item).toMatchObject({ slug: "draft-closed", eligible: false, expired: true, missing: ["datePosted"] });
    expect((await callJson("GET", `/sites/${site.id}/ssr/rich-results?item=it_none`, { auth })).status).toBe(404);
  });
});
