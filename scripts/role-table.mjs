// Writes the role × operation table (rendered by src/access/table.ts) into README.md between its markers.
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
const readme = await readFile("README.md", "utf8");
const start = readme.indexOf(mod.TABLE_START);
const end = readme.indexOf(mod.TABLE_END);
if (start < 0 || end < 0) throw new Error("README.md has no role-table markers");
await writeFile("README.md", readme.slice(0, start) + mod.roleTableBlock() + readme.slice(end + mod.TABLE_END.length));
console.log("README.md: role table written");
