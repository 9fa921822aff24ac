// The posts every read bench measures: one collection of `count` published posts, seeded and
// indexed the same way by each bench, so their figures describe the same data.
import { BENCH_POST_FIELDS, CATEGORIES, api, must, seedItems } from "../lib.mjs";
import { waitForIndex } from "./search.mjs";

/** Creates the `posts` collection on `site` and publishes `count` posts into it, then waits for search indexing. */
export async function seedBenchPosts(base, site, count) {
  await must(api(base, "PUT", `/sites/${site.id}/collections/posts`, site.adminKey, { fields: BENCH_POST_FIELDS }), "collection");
  await seedItems(base, site.id, site.adminKey, "posts", count, (i) => ({
    slug: `post-${i}`,
    publish: true,
    data: {
      title: `Post number ${i} about ${CATEGORIES[i % 8]}`,
      summary: `A short summary for post ${i}, with a few words to search through.`,
      body: `<p>Body of post ${i}.</p>`,
      category: CATEGORIES[i % 8],
      date: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString(),
      cover: { url: `https://img.example.com/${i}.jpg`, alt: `Cover ${i}`, width: 1600, height: 900 },
    },
  }));
  await waitForIndex(base, site.id, site.adminKey);
}
