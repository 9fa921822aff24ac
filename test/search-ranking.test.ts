import { describe, expect, it } from "vitest";
import { call, callJson, expectStatus } from "./helpers";
import { type SearchBody, settleIndex, siteWith, slugsOf } from "./search-helpers";

// The real local model (Universal Sentence Encoder lite in the embedder Worker).
const CORPUS = [
  {
    slug: "puppy-training",
    title: "Teaching a puppy to sit and stay",
    summary: "Short daily sessions with treats get young dogs to hold a sit.",
  },
  { slug: "dog-leash", title: "Stop your dog pulling on the leash", summary: "Loose-lead walking: stand still when the lead goes tight." },
  {
    slug: "quarterly-taxes",
    title: "Paying quarterly estimated taxes",
    summary: "Freelancers send estimated income tax payments four times a year.",
  },
  { slug: "tomato-sauce", title: "Quick tomato pasta sauce", summary: "Simmer canned tomatoes with garlic and olive oil for spaghetti." },
  {
    slug: "laptop-battery",
    title: "Laptop battery drains fast",
    summary: "Lower screen brightness and close background apps to save battery.",
  },
  {
    slug: "grow-tomatoes",
    title: "Growing tomatoes in the garden",
    summary: "Plant in full sun, stake the vines and water deeply at the roots.",
  },
];

describe("semantic search ranking (real local model)", () => {
  it("ranks a dog-training item above a tax-filing item for a puppy question", async () => {
    const site = await siteWith(CORPUS);
    await settleIndex(site);
    const { status, body } = await callJson<SearchBody>(
      "GET",
      `/v1/${site.token}/search?q=${encodeURIComponent("how do I teach my puppy to sit")}`,
    );
    expect(status).toBe(200);
    const slugs = slugsOf(body);
    expect(slugs[0]).toBe("puppy-training");
    const tax = slugs.indexOf("quarterly-taxes");
    expect(tax === -1 || tax > slugs.indexOf("puppy-training")).toBe(true);
    const scores = body.results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it("finds paraphrases that share almost no words with the item", async () => {
    const site = await siteWith(CORPUS);
    await settleIndex(site);
    const top = async (q: string) =>
      slugsOf(
        (await expectStatus(callJson<SearchBody>("GET", `/v1/${site.token}/search?q=${encodeURIComponent(q)}`), 200)) as SearchBody,
      )[0];
    expect(await top("obedience lessons for a young dog")).toBe("puppy-training");
    expect(await top("sending the government money every three months when self-employed")).toBe("quarterly-taxes");
    expect(await top("italian noodles with a red sauce for dinner")).toBe("tomato-sauce");
  });

  it("answers an off-topic or non-English query with no results", async () => {
    const site = await siteWith(CORPUS);
    await settleIndex(site);
    for (const q of ["rules of chess openings", "the plot of Hamlet", "receta de pasta con salsa de tomate", "子犬のしつけ方法"]) {
      const { status, body } = await callJson<SearchBody>("GET", `/v1/${site.token}/search?q=${encodeURIComponent(q)}`);
      expect(status).toBe(200);
      expect(body.results).toEqual([]);
    }
  });

  it("embeds rich text stripped to plain text", async () => {
    const site = await siteWith([
      { slug: "a", title: "Weekly notes", body: "<p>We <strong>repaired</strong> the dripping kitchen tap by replacing its washer.</p>" },
      { slug: "b", title: "Weekly notes", body: "<p>The <em>stock market</em> fell sharply as investors sold shares.</p>" },
    ]);
    await settleIndex(site);
    const { body } = await callJson<SearchBody>("GET", `/v1/${site.token}/search?q=${encodeURIComponent("fixing a leaky faucet")}`);
    expect(slugsOf(body)[0]).toBe("a");
  });

  it("limits to one collection when asked, and searches every collection otherwise", async () => {
    const site = await siteWith([
      { slug: "dog-a", title: "Teaching a puppy to sit", collection: "guides" },
      { slug: "dog-b", title: "House-training a young dog", collection: "blog" },
    ]);
    await settleIndex(site);
    const q = encodeURIComponent("puppy obedience training");
    const all = await callJson<SearchBody>("GET", `/v1/${site.token}/search?q=${q}`);
    expect(new Set(all.body.results.map((r) => r.item.collection))).toEqual(new Set(["guides", "blog"]));
    const one = await callJson<SearchBody>("GET", `/v1/${site.token}/search?q=${q}&collection=blog`);
    expect(one.body.results.map((r) => r.item.collection)).toEqual(["blog"]);
    expect((await call("GET", `/v1/${site.token}/search?q=${q}&collection=nope`)).status).toBe(404);
  });

  it("clamps limit instead of rejecting it", async () => {
    const site = await siteWith(
      Array.from({ length: 6 }, (_, i) => ({ slug: `dog-${i}`, title: `Dog training tip ${i}: teach your puppy to sit` })),
    );
    await settleIndex(site);
    const q = encodeURIComponent("puppy training");
    const n = async (limit: string) =>
      (await callJson<SearchBody>("GET", `/v1/${site.token}/search?q=${q}&limit=${limit}`)).body.results.length;
    expect(await n("2")).toBe(2);
    expect(await n("0")).toBe(1);
    expect(await n("-5")).toBe(1);
    expect(await n("999")).toBe(6);
    expect(await n("abc")).toBe(6);
  });

  it("requires q", async () => {
    const site = await siteWith(CORPUS.slice(0, 1));
    for (const qs of ["", "?q=", "?q=%20%20"]) {
      const { status, body } = await callJson<{ error: { code: string } }>("GET", `/v1/${site.token}/search${qs}`);
      expect(status).toBe(400);
      expect(body.error.code).toBe("bad_request");
    }
  });
});
