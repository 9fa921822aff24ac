// What the built Worker (index.js) holds: wrangler's esbuild metafile, grouped by package or
// folder, bytes in the output, and which parts are evaluated when an isolate starts (the
// rest sits behind a dynamic import(): esbuild keeps it in the bundle, wrapped, and runs it
// on first use). `node scripts/build.mjs --report` prints it; `--json` prints the rows.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const outdir = resolve(".wrangler/bundle-report");
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
const meta = JSON.parse(readFileSync(`${outdir}/meta.json`, "utf8"));
const [outName, out] = Object.entries(meta.outputs).find(([name]) => name.endsWith("index.js"));

// Modules reached from the entry through static imports only: evaluated at start-up.
const entry = Object.keys(meta.inputs).find((p) => /(^|\/)src\/index\.ts$/.test(p));
const eager = new Set();
const lazy = new Set();
const visit = (path, into) => {
  if (into.has(path) || !meta.inputs[path]) return;
  into.add(path);
  for (const i of meta.inputs[path].imports) if (i.kind !== "dynamic-import") visit(i.path, into);
};
visit(entry, eager);
for (const input of Object.values(meta.inputs))
  for (const i of input.imports) if (i.kind === "dynamic-import" && !eager.has(i.path)) visit(i.path, lazy);

/** A package (node_modules/<name>) or our folder (src/routes, actors/site/ssr, dist, ...). */
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

const groups = new Map();
for (const [path, { bytesInOutput }] of Object.entries(out.inputs)) {
  const g = groupOf(path);
  const row = groups.get(g) ?? { part: g, bytes: 0, startup: 0, files: 0 };
  row.bytes += bytesInOutput;
  if (!lazy.has(path)) row.startup += bytesInOutput;
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
