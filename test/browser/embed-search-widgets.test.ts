import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Site, api, blogSite, launch, putPage, service } from "./harness";

let browser: Browser;
let site: Site;
beforeAll(async () => {
  browser = await launch();
  site = await blogSite();
  const posts = [
    ["puppy-sit", "Training a puppy to sit", "Short sessions and treats teach a young dog its first command."],
    ["dog-stay", "Teaching your dog to stay", "Build up distance and duration so your dog holds a stay."],
    ["freelance-taxes", "Filing taxes as a freelancer", "Quarterly estimates, receipts and deductions without panic."],
  ];
  for (const [slug, title, summary] of posts) {
    await api("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
      slug,
      publish: true,
      data: { title, summary, body: `<p>${summary}</p>` },
    });
  }
  // Items are embedded by the site's alarm after publishing; wait until none is pending.
  for (let i = 0; i < 300; i++) {
    const { search } = await api<{ search: { pending: number } }>("GET", `/sites/${site.id}/search`, site.adminKey);
    if (search.pending === 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
});
afterAll(async () => {
  await browser?.close();
});

const page = (widgets: string) =>
  `<!doctype html><html><body>${widgets}<script src="${service()}/embed.js" data-oc-token="${site.token}" defer></script></body></html>`;

describe("search and related widgets in Chromium", () => {
  it("related renders the page item's nearest items with the widget template", async () => {
    const url = await putPage(
      `/related-${site.id}/blog/puppy-sit`,
      page(
        `<ul class="rel" data-oc-related="posts" data-oc-limit="2"><li><a data-oc-link data-oc-field="title">x</a></li><li data-oc-empty hidden>None</li></ul>`,
      ),
    );
    const tab = await browser.newPage();
    await tab.goto(url);
    await tab.waitForSelector(".rel[data-oc-rendered]");
    const links = await tab.$$eval(".rel a", (as) => as.map((a) => [a.textContent, a.getAttribute("href")]));
    expect(links[0]).toEqual(["Teaching your dog to stay", `/related-${site.id}/blog/dog-stay`]);
    expect(links.map((l) => l[0])).not.toContain("Training a puppy to sit");
    await tab.close();
  });

  it("search renders results as the visitor types", async () => {
    const url = await putPage(
      `/search-${site.id}/blog/`,
      page(
        `<form data-oc-search="posts"><input type="search" name="q"><ol data-oc-results><li><a data-oc-link data-oc-field="title">r</a></li><li data-oc-empty hidden>Nothing found</li></ol></form>`,
      ),
    );
    const tab = await browser.newPage();
    await tab.goto(url);
    await tab.waitForSelector("[data-oc-search][data-oc-rendered]");
    await tab.fill("input[name=q]", "how do I get my new puppy to sit down");
    await tab.waitForSelector("[data-oc-results] a");
    expect(await tab.textContent("[data-oc-results] li:first-child a")).toBe("Training a puppy to sit");
    await tab.fill("input[name=q]", "");
    await tab.waitForFunction(() => document.querySelectorAll("[data-oc-results] li").length === 0);
    await tab.close();
  });
});
