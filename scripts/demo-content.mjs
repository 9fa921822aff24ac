// The demo site's schema and items, used by `npm start` and `npm run seed`.
import { api, must, seedItems } from "./lib.mjs";
export const AUTHOR_FIELDS = [
  { key: "name", name: "Name", type: "text", indexed: true, required: true },
  { key: "bio", name: "Bio", type: "richText" },
];

export const POST_FIELDS = [
  { key: "title", name: "Title", type: "text", indexed: true, required: true },
  { key: "summary", name: "Summary", type: "text", indexed: true },
  { key: "body", name: "Body", type: "richText" },
  { key: "category", name: "Category", type: "text", indexed: true },
  { key: "readingMinutes", name: "Reading time (minutes)", type: "number", indexed: true },
  { key: "featured", name: "Featured", type: "boolean", indexed: true },
  { key: "date", name: "Date", type: "date", indexed: true },
  { key: "cover", name: "Cover image", type: "image" },
  { key: "author", name: "Author", type: "reference", collection: "authors", indexed: true },
];

const TOPICS = [
  ["Training a puppy to sit", "Short sessions, treats and patience teach a young dog its first command.", "pets"],
  ["Filing taxes as a freelancer", "Quarterly estimates, receipts and deductions without the panic.", "money"],
  ["Sourdough for beginners", "Feeding a starter and baking a first open-crumb loaf.", "food"],
  ["Tuning a road bike", "Gears, brakes and tyre pressure checked in twenty minutes.", "sport"],
  ["Growing tomatoes on a balcony", "Containers, sun and watering for a summer harvest.", "garden"],
  ["Learning to read sheet music", "Notes, rhythm and key signatures for adult learners.", "music"],
];

/** `imageBase`: where the covers are served (the demo page server of `npm start`, scripts/demo-page.mjs). */
export function demoPosts(count = 12, imageBase = "http://127.0.0.1:8788") {
  return Array.from({ length: count }, (_, i) => {
    const [title, summary, category] = TOPICS[i % TOPICS.length];
    const n = Math.floor(i / TOPICS.length) + 1;
    const day = String(1 + (i % 28)).padStart(2, "0");
    return {
      slug: `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}${n > 1 ? `-${n}` : ""}`,
      publish: true,
      data: {
        title: n > 1 ? `${title} (part ${n})` : title,
        summary,
        body: `<p>${summary}</p><p>Part ${n} of our <strong>${category}</strong> series.</p>`,
        category,
        readingMinutes: 3 + (i % 9),
        featured: i % 4 === 0,
        date: `2026-${String(1 + (i % 10)).padStart(2, "0")}-${day}`,
        cover: {
          url: `${imageBase}/images/${category}/${i + 1}.svg`,
          alt: `Cover of “${title}”: the ${category} series`,
          width: 1600,
          height: 900,
        },
        author: i % 2 === 0 ? "ada" : "grace",
      },
    };
  });
}

export const DEMO_AUTHORS = [
  { slug: "ada", publish: true, data: { name: "Ada Lovelace", bio: "<p>Writes about engines and everything else.</p>" } },
  { slug: "grace", publish: true, data: { name: "Grace Hopper", bio: "<p>Debugs gardens and compilers.</p>" } },
];

/** Creates a demo site (SEO Engine plan) with authors and posts on a running service; returns its keys. */
export async function seedDemoSite(base, operator, posts = 12, imageBase = undefined) {
  const { site } = await must(api(base, "POST", "/sites", operator, { name: "Demo blog", plan: "seo_engine" }), "create demo site");
  const key = site.adminKey;
  await must(api(base, "PUT", `/sites/${site.id}/collections/authors`, key, { name: "Authors", fields: AUTHOR_FIELDS }), "authors");
  await must(api(base, "PUT", `/sites/${site.id}/collections/posts`, key, { name: "Posts", fields: POST_FIELDS }), "posts");
  await must(api(base, "POST", `/sites/${site.id}/collections/authors/items:batch`, key, { items: DEMO_AUTHORS }), "seed authors");
  // A demo post is about 1.3 KB of JSON: 250 a call stays under the 1 MB body limit.
  const all = demoPosts(posts, imageBase);
  await seedItems(base, site.id, key, "posts", all.length, (i) => all[i], 250);
  return { id: site.id, workspaceId: site.workspaceId, token: site.token, adminKey: key };
}
