// Writes the role × operation table (rendered by src/access/table.ts) into docs/workspaces.md between its markers.
import { build } from "esbuild";
import { readFile, writeFile } from "node:fs/promises";

const out = await build({
  entryPoints: ["src/access/table.ts"],
  bundle: true,
  format: "esm",
  write: false,
  platform: "neutral",
  logLevel: "error",
});
const mod = await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString("base64")}`);
const DOC = "docs/workspaces.md";
const doc = await readFile(DOC, "utf8");
const start = doc.indexOf(mod.TABLE_START);
const end = doc.indexOf(mod.TABLE_END);
if (start < 0 || end < 0) throw new Error(`${DOC} has no role-table markers`);
await writeFile(DOC, doc.slice(0, start) + mod.roleTableBlock() + doc.slice(end + mod.TABLE_END.length));
console.log(`${DOC}: role table written`);
