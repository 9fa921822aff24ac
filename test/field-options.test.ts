/** Display names and help text of fields, and Option fields, through the real API. */
import { beforeAll, describe, expect, it } from "vitest";
import { addItem, callJson, expectStatus, newSite, type TestSite } from "./helpers";

interface Err {
  error: { code: string; message: string; details?: { issues?: { path: string; message: string }[]; optionsInUse?: unknown } };
}
interface Listed {
  items: { slug: string; data: Record<string, unknown> }[];
}

const CATEGORY = {
  key: "category",
  name: "Category",
  help: "Where the recipe shows on the menu.",
  type: "option",
  indexed: true,
  options: [
    { value: "soup", label: "Soup" },
    { value: "main", label: "Main course" },
    { value: "dessert", label: "Dessert" },
  ],
};
const FIELDS = [
  { key: "title", name: "Title", type: "text", required: true },
  { key: "cover", name: "Cover image", help: "Shown at the top, 1600 px wide at best.", type: "image" },
  CATEGORY,
];

let site: TestSite;
const put = (slug: string, fields: unknown[]) =>
  callJson<{ collection: { fields: Record<string, unknown>[] } } & Err>("PUT", `/sites/${site.id}/collections/${slug}`, {
    auth: site.adminKey,
    body: { name: "Recipes", fields },
  });

beforeAll(async () => {
  site = await newSite("pro");
  await expectStatus(put("recipes", FIELDS), 201);
  for (const [slug, category] of [
    ["tomato-soup", "soup"],
    ["lasagne", "main"],
    ["tiramisu", "dessert"],
    ["minestrone", "soup"],
  ] as const) {
    await addItem(site, "recipes", { slug, publish: true, data: { title: slug, category } });
  }
});

describe("fields: display names and help text", () => {
  it("keeps each field's label and help text beside its key", async () => {
    const r = await callJson<{ collection: { fields: Record<string, unknown>[] } }>("GET", `/sites/${site.id}/collections/recipes`, {
      auth: site.adminKey,
    });
    expect(r.body.collection.fields[1]).toEqual({
      key: "cover",
      name: "Cover image",
      help: "Shown at the top, 1600 px wide at best.",
      type: "image",
    });
  });

  it("still refuses a label as a key, and a help text longer than 500 characters", async () => {
    const bad = await put("other", [{ key: "Cover image", type: "image" }]);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details?.issues?.[0]?.path).toBe("fields.0.key");
    const long = await put("other", [{ key: "cover", type: "image", help: "x".repeat(501) }]);
    expect(long.status).toBe(400);
    expect(long.body.error.details?.issues?.[0]?.path).toBe("fields.0.help");
  });
});

describe("fields: Option", () => {
  it("refuses an option field without options, options on another type, and duplicate values", async () => {
    const none = await put("other", [{ key: "category", type: "option" }]);
    expect(none.status).toBe(400);
    expect(none.body.error.details?.issues?.[0]?.path).toBe("fields.0.options");
    const onText = await put("other", [{ key: "category", type: "text", options: [{ value: "a" }] }]);
    expect(onText.status).toBe(400);
    expect(onText.body.error.details?.issues?.[0]?.path).toBe("fields.0.options");
    const dup = await put("other", [{ key: "category", type: "option", options: [{ value: "a" }, { value: "a" }] }]);
    expect(dup.status).toBe(400);
    expect(dup.body.error.details?.issues?.[0]?.path).toBe("fields.0.options.1.value");
  });

  it("takes only one of the options, and the content API returns the option's value", async () => {
    const bad = await callJson<Err>("POST", `/sites/${site.id}/collections/recipes/items`, {
      auth: site.adminKey,
      body: { slug: "pie", data: { title: "Pie", category: "Main course" } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details?.issues?.[0]).toEqual({
      path: "data.category",
      message: 'must be one of "soup", "main", "dessert", got "Main course"',
    });
    const one = await callJson<{ item: { data: Record<string, unknown> } }>("GET", `/v1/${site.token}/collections/recipes/items/lasagne`);
    expect(one.body.item.data["category"]).toBe("main");
  });

  it("filters and sorts by an indexed option field", async () => {
    const soups = await callJson<Listed>("GET", `/v1/${site.token}/collections/recipes/items?filter[category]=soup&sort=slug`);
    expect(soups.status).toBe(200);
    expect(soups.body.items.map((i) => i.slug)).toEqual(["minestrone", "tomato-soup"]);
    const notSoup = await callJson<Listed>(
      "GET",
      `/v1/${site.token}/collections/recipes/items?filter[category][in]=main,dessert&sort=slug`,
    );
    expect(notSoup.body.items.map((i) => i.slug)).toEqual(["lasagne", "tiramisu"]);
    const sorted = await callJson<Listed>("GET", `/v1/${site.token}/collections/recipes/items?sort=-category,slug`);
    expect(sorted.body.items.map((i) => i.data["category"])).toEqual(["soup", "soup", "main", "dessert"]);
    const contains = await callJson<Err>("GET", `/v1/${site.token}/collections/recipes/items?filter[category][contains]=ou`);
    expect(contains.status).toBe(400);
  });

  it("refuses to drop an option that items use, saying which and how many, and drops an unused one", async () => {
    const without = (value: string) => [...FIELDS.slice(0, 2), { ...CATEGORY, options: CATEGORY.options.filter((o) => o.value !== value) }];
    const refused = await put("recipes", without("soup"));
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('"soup" (2 items)');
    expect(refused.body.error.details?.optionsInUse).toEqual([{ value: "soup", items: 2 }]);
    const soup = await callJson<{ item: { data: Record<string, unknown> } }>(
      "GET",
      `/v1/${site.token}/collections/recipes/items/minestrone`,
    );
    expect(soup.body.item.data["category"]).toBe("soup");

    // Relabelling keeps every item; adding and then dropping an unused option is allowed.
    const relabelled = [
      ...FIELDS.slice(0, 2),
      { ...CATEGORY, options: [...CATEGORY.options.slice(0, 2), { value: "dessert", label: "Sweets" }, { value: "salad" }] },
    ];
    expect((await put("recipes", relabelled)).status).toBe(200);
    expect((await put("recipes", FIELDS)).status).toBe(200);
    const after = await callJson<{ item: { data: Record<string, unknown> } }>(
      "GET",
      `/v1/${site.token}/collections/recipes/items/tiramisu`,
    );
    expect(after.body.item.data["category"]).toBe("dessert");
  });
});

describe("fields: Option labels in the content API", () => {
  const LABELS = { category: { soup: "Soup", main: "Main course", dessert: "Dessert" } };

  it("gives each option's label beside the values, in lists, items and the schema", async () => {
    const list = await callJson<Listed & { labels?: unknown }>("GET", `/v1/${site.token}/collections/recipes/items?sort=slug`);
    expect(list.body.labels).toEqual(LABELS);
    expect(list.body.items.map((i) => i.data["category"])).toEqual(["main", "soup", "dessert", "soup"]); // lasagne, minestrone, tiramisu, tomato-soup
    const one = await callJson<{ item: { data: Record<string, unknown> }; labels?: unknown }>(
      "GET",
      `/v1/${site.token}/collections/recipes/items/lasagne`,
    );
    expect(one.body.item.data["category"]).toBe("main");
    expect(one.body.labels).toEqual(LABELS);
    const schema = await callJson<{ schema: unknown; labels: unknown }>("GET", `/v1/${site.token}/collections/recipes/schema`);
    expect(schema.body.labels).toEqual({ recipes: LABELS });
  });

  it("shows a relabelled option's new label at once, and an unlabelled option as its value", async () => {
    const relabelled = [
      ...FIELDS.slice(0, 2),
      { ...CATEGORY, options: [{ value: "soup", label: "Soups & broths" }, { value: "main" }, CATEGORY.options[2]] },
    ];
    expect((await put("recipes", relabelled)).status).toBe(200);
    const list = await callJson<{ labels?: unknown }>("GET", `/v1/${site.token}/collections/recipes/items?sort=slug`);
    expect(list.body.labels).toEqual({ category: { soup: "Soups & broths", main: "main", dessert: "Dessert" } });
    expect((await put("recipes", FIELDS)).status).toBe(200);
  });

  it("adds no labels to a collection without option fields", async () => {
    await expectStatus(put("notes", [{ key: "title", type: "text" }]), 201);
    await addItem(site, "notes", { slug: "n1", publish: true, data: { title: "A note" } });
    const list = await callJson<Record<string, unknown>>("GET", `/v1/${site.token}/collections/notes/items`);
    expect(Object.keys(list.body)).toEqual(["items", "page", "limit", "total", "totalPages"]);
    const schema = await callJson<{ labels: unknown }>("GET", `/v1/${site.token}/collections/notes/schema`);
    expect(schema.body.labels).toEqual({});
  });
});
