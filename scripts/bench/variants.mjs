// Variants of a built Worker that only the bench runs: production code has no switch for them,
// so the bench makes them from the bundle wrangler built.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * A copy of the built Worker `script` in which `recordRevision` (actors/site/storage/revisions-table.ts)
 * returns at once: no item writes a revision, and each write's version is 0. Beside the build
 * itself it measures what keeping a revision adds to a save or an import. The copy goes to a
 * folder beside the build's (`<build>-without-revisions/`), with the WebAssembly files it needs.
 * Throws when the bundle does not define the function exactly once (a build older than item
 * history, or a rename), rather than measure a variant that still writes revisions.
 */
export function withoutRevisions(script) {
  const from = dirname(script);
  const to = `${from}-without-revisions`;
  const source = readFileSync(script, "utf8");
  // The bundle is not minified (wrangler.toml), so the function keeps its name and its own line;
  // esbuild may rename a parameter that clashes (`parsed2`), never the function we import by name.
  const definition = /^function recordRevision\([^)]*\) \{$/gm;
  const found = source.match(definition) ?? [];
  if (found.length !== 1) throw new Error(`${script}: expected one definition of recordRevision, found ${found.length}`);
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const file of readdirSync(from)) if (file.endsWith(".wasm")) copyFileSync(join(from, file), join(to, file));
  const out = join(to, basename(script));
  writeFileSync(
    out,
    source.replace(definition, (line) => `${line}\n  return 0;`),
  );
  return out;
}
