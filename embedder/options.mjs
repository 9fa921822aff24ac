// The local embedder as a Miniflare worker (v4 option shape, which the vitest
// plugin and convertV4MiniflareOptions accept): every module listed explicitly,
// because Miniflare no longer collects a script's imports by rule.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const EMBEDDER_NAME = "open-content-edge-embedder";
const dist = join(dirname(fileURLToPath(import.meta.url)), "dist");

export function embedderWorker() {
  const model = readdirSync(join(dist, "model")).sort();
  return {
    name: EMBEDDER_NAME,
    modulesRoot: dist,
    modules: [
      { type: "ESModule", path: join(dist, "worker.mjs") },
      ...model.map((f) => ({ type: f.endsWith(".wasm") ? "CompiledWasm" : "Data", path: join(dist, "model", f) })),
    ],
    // Before workerd gained a `process` global: with one, emscripten in tfjs takes workerd for Node.
    compatibilityDate: "2025-01-01",
  };
}
