// `BENCH_ONLY=storage npm run bench`: bytes on disk per item as a site grows, on the built Worker
// on plain workerd (Miniflare, persisted to a temporary directory). One site per size
// (BENCH_SCALE_SIZES, default 1000,10000,100000) with a `posts` collection of indexed title,
// number, date and option, a 2 KB rich-text body and an image, seeded through items:batch on the
// Starter plan (no semantic index: its vectors are Vectorize's in production). Each site's SQLite
// file is then read with node:sqlite's `dbstat`, table by table (indexes counted with their table).
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { api, must, seededPostsSite } from "../lib.mjs";
import { buildWorker, startWorkerd } from "../workerd-host.mjs";

const SIZES = (process.env.BENCH_SCALE_SIZES ?? "1000,10000,100000").split(",").map(Number);
const operator = "bench-operator";
/** About 2.4 KB of body, different in every item (a real archive's text does not repeat). */
const body = (i) =>
  `<h2>Notes ${i}</h2>` +
  Array.from(
    { length: 8 },
    (_, p) => `<p>Paragraph ${p} of post ${i}: ${"kneading proving baking shaping scoring ".repeat(7)}${(i * 7919 + p).toString(36)}.</p>`,
  ).join("");

const persistDir = mkdtempSync(join(tmpdir(), "oc-storage-"));
const host = await startWorkerd({ scriptPath: buildWorker(".bench/build"), adminToken: operator, dashboard: false, persistDir });
const base = host.base;

/** The SQLite files under the persist directory (workerd keeps a WAL beside each: read through SQLite, never by file size). */
function sqliteFiles() {
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".sqlite")) out.push(p);
    }
  };
  walk(persistDir);
  return out;
}

/** The site object's file: the one whose `items` table holds the site's `count` items. */
function siteFile(siteItems) {
  for (const path of sqliteFiles()) {
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const has = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'items'").get();
      if (has && db.prepare("SELECT count(*) AS n FROM items").get().n === siteItems) return path;
    } finally {
      db.close();
    }
  }
  throw new Error(`no site object holds ${siteItems} items`);
}

/** Bytes per table (its indexes and FTS shadow tables with it), free pages and the whole database. */
function tableBytes(path) {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const owner = new Map(
      db
        .prepare("SELECT name, tbl_name FROM sqlite_schema")
        .all()
        .map((r) => [r.name, r.tbl_name]),
    );
    const bytes = new Map();
    for (const r of db.prepare("SELECT name, sum(pgsize) AS s FROM dbstat GROUP BY name").all()) {
      let t = owner.get(r.name) ?? r.name;
      if (/^items_fts/.test(t)) t = "items_fts";
      bytes.set(t, (bytes.get(t) ?? 0) + r.s);
    }
    const pageSize = db.prepare("PRAGMA page_size").get().page_size;
    const free = db.prepare("PRAGMA freelist_count").get().freelist_count * pageSize;
    const file = db.prepare("PRAGMA page_count").get().page_count * pageSize;
    return { bytes, free, file };
  } finally {
    db.close();
  }
}

const results = new Map();
try {
  for (const n of SIZES) {
    let content = 0;
    const { seedPerSecond } = await seededPostsSite(base, operator, {
      name: `Storage ${n}`,
      plan: "starter",
      fields: [
        { key: "title", type: "text", indexed: true, required: true },
        { key: "n", type: "number", indexed: true },
        { key: "date", type: "date", indexed: true },
        { key: "category", type: "option", indexed: true, options: ["c0", "c1", "c2", "c3", "c4"].map((value) => ({ value })) },
        { key: "body", type: "richText" },
        { key: "cover", type: "image" },
      ],
      // 20 images by URL, shown in turn.
      prepare: async (site) => {
        const covers = [];
        for (let k = 0; k < 20; k++) {
          const { media } = await must(
            api(base, "POST", `/sites/${site.id}/media`, site.adminKey, {
              url: `https://images.example.com/cover-${k}.jpg`,
              alt: `Cover ${k}`,
              width: 1600,
              height: 900,
            }),
            "media",
          );
          covers.push(media.mediaId);
        }
        return covers;
      },
      count: n,
      item: (i, covers) => {
        const data = {
          title: `Post ${i}: ${["bread", "garden", "travel", "music"][i % 4]} notes`,
          n: i,
          date: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString().slice(0, 10),
          category: `c${i % 5}`,
          body: body(i),
          cover: covers[i % covers.length],
        };
        content += Buffer.byteLength(JSON.stringify(data));
        return { slug: `post-${i}`, publish: true, data };
      },
    });
    // Let the alarm's work the seed queued finish before the file is read.
    await new Promise((r) => setTimeout(r, 3000));
    const { bytes, free, file } = tableBytes(siteFile(n));
    results.set(n, { content: content / n, file, free, bytes, seed: seedPerSecond });
  }
} finally {
  await host.dispose();
  if (process.env.BENCH_KEEP) console.log(`kept ${persistDir}`);
  else rmSync(persistDir, { recursive: true, force: true });
}

const col = (n) => `${n.toLocaleString("en")} items`;
const perItem = (n, b) => (b / n / 1024).toFixed(2);
const tables = [...new Set(SIZES.flatMap((n) => [...results.get(n).bytes.keys()]))]
  .filter((t) => SIZES.some((n) => results.get(n).bytes.get(t) / n > (Number(process.env.BENCH_MIN_BYTES) || 50)))
  .sort((a, b) => results.get(SIZES.at(-1)).bytes.get(b) - results.get(SIZES.at(-1)).bytes.get(a));
const rows = [];
const row = (label, f) => rows.push({ "KB per item": label, ...Object.fromEntries(SIZES.map((n) => [col(n), f(n)])) });
row("content (the item's JSON)", (n) => perItem(1, results.get(n).content));
row("site object's database", (n) => perItem(n, results.get(n).file));
for (const t of tables) row(`  ${t}`, (n) => perItem(n, results.get(n).bytes.get(t) ?? 0));
row("  free pages", (n) => perItem(n, results.get(n).free));
row("seed through items:batch, items/s", (n) => results.get(n).seed.toFixed(0));
console.log("\nStorage per item on plain workerd (Miniflare's SQLite file, read with dbstat; indexes with their table):\n");
console.table(rows);
