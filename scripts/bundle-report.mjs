// What the built Worker (index.js) holds: wrangler's esbuild metafile, grouped by package or
// folder, bytes in the output, and which parts are evaluated when an isolate starts (the
// rest sits behind a dynamic import(): esbuild keeps it in the bundle, wrapped, and runs it
// on first use). `node scripts/build.mjs --report` prints it; `--json` prints the rows.
//
// `--check <metafile>` (npm run check, on the dry run's metafile) prints nothing and fails if a
// part that no public read needs is evaluated at start-up, where every isolate pays for it before
// its first read (docs/caching.md): zod (the dashboard's and sign-in's validation), passkey
// verification, the API description and its viewer, the CSV writers of the exports.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const checkAt = process.argv.indexOf("--check");
const outdir = resolve(".wrangler/bundle-report");
const metafile = checkAt >= 0 ? resolve(process.argv[checkAt + 1]) : `${outdir}/meta.json`;
if (checkAt < 0)
  execFileSync(
    process.execPath,
    [
      resolve("node_modules/wrangler/bin/wrangler.js"),
      "deploy",
      "--dry-run",
      "--env=",
      "--outdir",
      outdir,
      "--metafile",
      `${outdir}/meta.json`,
    ],
    { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  );
const meta = JSON.parse(readFileSync(metafile, "utf8"));
const [outName, out] = Object.entries(meta.outputs).find(([name]) => name.endsWith("index.js"));

// Modules reached from the entry (wrangler.toml's main, which exports the front Worker and the
// Durable Object classes) through static imports only: evaluated at start-up.
const entry = Object.keys(meta.inputs).find((p) => /^(\.\.\/)*index\.ts$/.test(p));
if (!entry) throw new Error("the bundle's entry (index.ts) is not in the metafile");
// Everything else in the bundle is reached through a dynamic import() only, and runs on first use.
const eager = new Set();
const visit = (path) => {
  if (eager.has(path) || !meta.inputs[path]) return;
  eager.add(path);
  for (const i of meta.inputs[path].imports) if (i.kind !== "dynamic-import") visit(i.path);
};
visit(entry);

/** A package (node_modules/<name>) or our folder (src/content, actors/site/ssr, dist, ...). */
function groupOf(path) {
  const nm = path.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = path.slice(nm + "node_modules/".length).split("/");
    return `npm: ${rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const clean = path.replace(/^(\.\.\/)+/, "").replace(/^.*?\/(src|actors|dist)\//, "$1/");
  const parts = clean.split("/");
  if (parts[0] === "dist" || parts.length <= 2) return clean;
  return parts
    .slice(0, parts[0] === "actors" ? 3 : 2)
    .join("/")
    .replace(/\.ts$/, "");
}

/** Parts that no public read needs: only ever behind a dynamic import(). */
const NOT_AT_STARTUP = [
  /node_modules\/zod\//,
  /node_modules\/@simplewebauthn\//,
  /(^|\/)dist\/docs-assets\.js$/,
  /(^|\/)openapi\.json$/,
  // CSV writers of the workspace's activity export and the site exports.
  /node_modules\/papaparse\//,
  /node_modules\/csv-stringify\//,
];
if (checkAt >= 0) {
  const wrong = [...eager].filter((p) => NOT_AT_STARTUP.some((re) => re.test(p)));
  if (wrong.length) {
    // The shortest chain of static imports from the entry to the first offender says where to cut.
    const from = new Map([[entry, null]]);
    const queue = [entry];
    while (queue.length) {
      const p = queue.shift();
      for (const i of meta.inputs[p]?.imports ?? [])
        if (i.kind !== "dynamic-import" && !from.has(i.path)) {
          from.set(i.path, p);
          queue.push(i.path);
        }
    }
    const chain = [];
    for (let p = wrong[0]; p; p = from.get(p)) chain.unshift(p);
    console.error(
      `The Worker evaluates ${wrong.length} module(s) at start-up that no public read needs (first: ${wrong[0]}).\n` +
        `Static imports from the entry: ${chain.join(" → ")}\n` +
        `Load the code that needs it with \`await import()\` where it is used (see src/index.ts's dashboard routes and docs/caching.md).`,
    );
    process.exit(1);
  }
  process.exit(0);
}

const groups = new Map();
for (const [path, { bytesInOutput }] of Object.entries(out.inputs)) {
  const g = groupOf(path);
  const row = groups.get(g) ?? { part: g, bytes: 0, startup: 0, files: 0 };
  row.bytes += bytesInOutput;
  if (eager.has(path)) row.startup += bytesInOutput;
  row.files++;
  groups.set(g, row);
}
const rows = [...groups.values()].sort((a, b) => b.bytes - a.bytes);
const total = out.bytes;
const startup = rows.reduce((s, r) => s + r.startup, 0);
if (process.argv.includes("--json")) {
  console.log(JSON.stringify({ total, startup, rows }, null, 2));
} else {
  const kb = (b) => (b / 1024).toFixed(1);
  console.log(`\nWorker bundle ${outName}: ${kb(total)} KB; evaluated at start-up: ${kb(startup)} KB of modules (the rest on first use)`);
  console.table(
    rows
      .filter((r) => r.bytes >= 2048)
      .map((r) => ({
        part: r.part,
        KB: kb(r.bytes),
        "%": ((100 * r.bytes) / total).toFixed(1),
        "at start-up KB": kb(r.startup),
        files: r.files,
      })),
  );
  const small = rows.filter((r) => r.bytes < 2048);
  console.log(`${small.length} smaller parts: ${kb(small.reduce((s, r) => s + r.bytes, 0))} KB`);
}
