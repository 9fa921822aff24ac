// The Workers the bench measures: the working tree's, a commit's (built once from its tree), one
// built before (a path ending in .js), and variants only the bench runs (production code has no
// switch for them, so the bench makes them from the bundle wrangler built).
import { execFileSync, execSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { buildWorker } from "../workerd-host.mjs";

const sh = (cmd, args, opts = {}) => execFileSync(cmd, args, { encoding: "utf8", ...opts }).trim();

/** Builds `commit`'s Worker once (cached under .bench/compare/<sha>): its tree from git, our node_modules. */
export function buildCommit(commit) {
  const sha = sh("git", ["rev-parse", "--verify", `${commit}^{commit}`]);
  const dir = resolve(`.bench/compare/${sha.slice(0, 12)}`);
  const out = `${dir}/build/index.js`;
  if (existsSync(out)) return { label: sha.slice(0, 7), script: out };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(`${dir}/tree`, { recursive: true });
  execSync(`git archive ${sha} | tar -x -C ${JSON.stringify(`${dir}/tree`)}`);
  symlinkSync(resolve("node_modules"), `${dir}/tree/node_modules`);
  console.error(`building ${sha.slice(0, 7)} in ${dir}`);
  execFileSync(
    process.execPath,
    [resolve("node_modules/wrangler/bin/wrangler.js"), "deploy", "--dry-run", "-c", "wrangler.toml", "--env=", "--outdir", `${dir}/build`],
    { cwd: `${dir}/tree`, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
  );
  return { label: sha.slice(0, 7), script: out };
}

/** The working tree's Worker, labelled with HEAD and whether the tree has changes. */
export function buildWork() {
  const dirty = sh("git", ["status", "--porcelain", "--untracked-files=no"]) !== "";
  const head = sh("git", ["rev-parse", "--short=7", "HEAD"]);
  return { label: `working tree (${head}${dirty ? "+changes" : ""})`, script: buildWorker(".bench/compare/work") };
}

/** A build by name: WORK (the working tree), a path ending in `.js` (a Worker built before, measured as it is), or a commit. */
export function buildOf(name) {
  if (name === "WORK") return buildWork();
  if (name.endsWith(".js")) return { label: name, script: resolve(name) };
  return buildCommit(name);
}

/**
 * The two builds an A/B bench measures: BENCH_BUILDS=A,B (each as `buildOf` takes it), or
 * BENCH_BASELINE=<commit> against the working tree. The local embedder (a workerd of its own) is
 * the working tree's: built here when neither build is.
 */
export function pairOfBuilds() {
  const names = process.env.BENCH_BUILDS
    ? process.env.BENCH_BUILDS.split(",").map((s) => s.trim())
    : process.env.BENCH_BASELINE
      ? [process.env.BENCH_BASELINE, "WORK"]
      : [];
  if (names.length !== 2) throw new Error("name the two builds: BENCH_BASELINE=<commit> (against the working tree) or BENCH_BUILDS=A,B");
  if (!names.includes("WORK")) execFileSync(process.execPath, ["embedder/build.mjs"], { stdio: "inherit" });
  return names.map(buildOf);
}

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
  // The bundle is not minified (wrangler.toml), so the function keeps its name and its own line.
  // esbuild renames a name that clashes (a parameter here is `parsed2`): were it ever to rename
  // this function, the count below would be 0 and the bench would stop, not measure the wrong build.
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
