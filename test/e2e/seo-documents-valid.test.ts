/**
 * The stored SEO documents checked by independent tools: xmllint against the
 * sitemaps.org schemas (test/fixtures/xsd) and a real RSS parser from npm,
 * against the service running on workerd.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Parser from "rss-parser";
import { describe, expect, it } from "vitest";
import { sitemapIndex, URLS_PER_PART, urlset } from "../../actors/site/seo/sitemap";
import { listPage } from "../fixtures/blog-pages";
import { type Site, addPosts, api, blogSite, putPage, service } from "../browser/harness";

const XSD = join(import.meta.dirname, "../fixtures/xsd");
const dir = mkdtempSync(join(tmpdir(), "oc-xml-"));

/** Runs xmllint; returns its stderr on failure, "" when the document is valid. */
function xmllint(schema: string, xml: string, name = "doc.xml"): string {
  const file = join(dir, name);
  writeFileSync(file, xml);
  try {
    execFileSync("xmllint", ["--noout", "--schema", join(XSD, schema), file], { stdio: "pipe" });
    return "";
  } catch (err) {
    return String((err as { stderr?: Buffer }).stderr ?? err);
  }
}

async function doc(site: Site, path: string): Promise<string> {
  const res = await fetch(`${service()}${path}`, { headers: { "x-service-token": site.token } });
  expect(res.status, path).toBe(200);
  return res.text();
}

/** The rebuild runs on the site's alarm right after a change; wait until it shows `needle`. */
async function eventually(site: Site, path: string, needle: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const body = await doc(site, path);
    if (body.includes(needle)) return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${path} never showed ${needle}`);
}

async function capturedSite() {
  const site = await blogSite();
  await addPosts(site);
  await api("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
    slug: "hostile",
    publish: true,
    data: {
      title: `<b>"Tags" & 'quotes'</b> ]]> \u0001\u0008`,
      summary: "line\u000bbreak & <more>",
      body: "<p>x</p><script>alert(1)</script>",
    },
  });
  const base = `/xml-${site.id}/blog/`;
  const url = await putPage(base, listPage({ service: service(), token: site.token }));
  await api("PUT", `/sites/${site.id}/ssr/capture`, site.adminKey, { pageUrl: url, collection: "posts" });
  return { site, base };
}

describe("sitemap.xml validates against the sitemaps.org schemas", () => {
  it("the site's urlset, with image entries and hostile content", async () => {
    const { site, base } = await capturedSite();
    const xml = await eventually(site, `${base}sitemap.xml`, "hostile");
    expect(xml).toContain("<image:image>");
    expect(xmllint("urlset-with-images.xsd", xml)).toBe("");
  });

  it("a site with locales: every version with its hreflang alternates, and a broken alternate refused", async () => {
    const { site, base } = await capturedSite();
    const { collection } = await api<{ collection: { name: string; fields: { key: string }[] } }>(
      "GET",
      `/sites/${site.id}/collections/posts`,
      site.adminKey,
    );
    await api("PUT", `/sites/${site.id}/collections/posts`, site.adminKey, {
      name: collection.name,
      fields: collection.fields.map((f) => (f.key === "title" ? { ...f, localized: true } : f)),
    });
    await api("PUT", `/sites/${site.id}/locales`, site.adminKey, { primary: "en", secondary: [{ code: "fr" }, { code: "es-MX" }] });
    const made = (await api("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
      slug: "hola-source",
      publish: true,
      data: { title: "Source" },
    })) as { item: { id: string } };
    await api("PUT", `/sites/${site.id}/collections/posts/items/${made.item.id}/locales/es-MX`, site.adminKey, {
      slug: "hola",
      data: { title: "¡Hola & <adiós>!" },
    });
    const xml = await eventually(site, `${base}sitemap.xml`, "/es-mx");
    expect(xml).toContain('hreflang="es-MX"');
    expect(xmllint("urlset-with-alternates.xsd", xml, "locales.xml")).toBe("");
    const broken = xml.replace('hreflang="es-MX"', 'hreflang="not a tag"');
    expect(xmllint("urlset-with-alternates.xsd", broken, "locales-broken.xml")).toContain("fails to validate");
  });

  it("a sitemap index and its parts of up to 5,000 URLs", () => {
    const urls = Array.from({ length: URLS_PER_PART }, (_, i) => ({
      loc: `https://x.test/blog/p-${i}`,
      lastmod: "2024-05-01T00:00:00.000Z",
      image: i % 2 ? null : `https://img.test/${i}.jpg`,
    }));
    const index = sitemapIndex(
      [
        { part: 1, lastmod: "2024-05-01T00:00:00.000Z" },
        { part: 3, lastmod: "2024-05-02T00:00:00.000Z" },
      ],
      "https://x.test/blog/",
    );
    expect(xmllint("siteindex.xsd", index, "index.xml")).toBe("");
    expect(xmllint("urlset-with-images.xsd", urlset(urls), "part1.xml")).toBe("");
  });

  it("and the validator does refuse a broken sitemap", () => {
    const broken =
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><lastmod>2024-01-01</lastmod></url></urlset>';
    expect(xmllint("urlset-with-images.xsd", broken, "broken.xml")).toContain("fails to validate");
  });
});

describe("rss.xml parses with a real feed parser", () => {
  it("channel and items as RSS 2.0 readers see them", async () => {
    const { site, base } = await capturedSite();
    const xml = await eventually(site, `${base}rss.xml`, "hostile");
    const feed = await new Parser({
      customFields: {
        item: [
          ["content:encoded", "contentEncoded"],
          ["media:content", "media"],
        ],
      },
    }).parseString(xml);
    expect(feed.title).toBe("Acme Blog & News");
    expect(feed.description).toBe('Stories from Acme "HQ"');
    const titles = feed.items.map((i) => i.title);
    // Newest published first; control characters XML cannot hold are gone.
    expect(titles).toEqual([`<b>"Tags" & 'quotes'</b> ]]> `, "Second post", `Hello & <World> "quoted"`]);
    const hello = feed.items[2]!;
    expect(hello.link).toMatch(new RegExp(`${base}hello-world$`));
    expect(hello.guid).toBe(hello.link);
    expect(new Date(hello.pubDate!).toString()).not.toBe("Invalid Date");
    expect((hello as unknown as { contentEncoded: string }).contentEncoded).toContain("<strong>text</strong>");
    expect(hello.contentSnippet ?? hello.content).toBeTruthy();
    expect(xml).toContain('<media:content url="https://cdn.example.com/cover.jpg" medium="image"/>');
  });
});
