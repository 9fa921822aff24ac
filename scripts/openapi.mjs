// Writes openapi.json from the operations registry (src/openapi) and the contract (src/contract),
// in plain Node; `--check` fails instead
// when the committed copy differs from what the code generates. Run by `npm run openapi`
// and `npm run check`.
import { build } from "esbuild";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = `${root}node_modules/.cache/openapi/document.mjs`;
await build({
  entryPoints: [`${root}src/openapi/document.ts`],
  bundle: true,
  format: "esm",
  platform: "node",
  outfile: out,
  logLevel: "warning",
});
const { buildDocument } = await import(pathToFileURL(out).href);
const version = JSON.parse(readFileSync(`${root}package.json`, "utf8")).version;
const text = `${JSON.stringify(buildDocument(version), null, 2)}\n`;
const path = `${root}openapi.json`;
if (process.argv.includes("--check")) {
  let committed = "";
  try {
    committed = readFileSync(path, "utf8");
  } catch {}
  if (committed !== text) {
    console.error("openapi.json differs from what the code generates: run `npm run openapi` and commit it.");
    process.exit(1);
  }
  console.log("openapi.json matches the code.");
} else {
  writeFileSync(path, text);
  console.log(`openapi.json written (${text.length} bytes).`);
}
