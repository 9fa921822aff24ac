import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { EMBEDDER_NAME, embedderWorker } from "./embedder/options.mjs";

const bindings = { ADMIN_TOKEN: "test-operator-token", SITE_META_TTL_MS: "1000" };
// Tests of what happens when the embedding model is down run against a stand-in
// that answers every call with 503, under the embedder's own service name.
const MODEL_DOWN_TESTS = "test/search-model-down.test.ts";

export default defineConfig({
  test: {
    testTimeout: 30_000,
    projects: [
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            // The local embedder (built by `pretest`), reached through the EMBEDDER service binding.
            miniflare: { bindings, workers: [embedderWorker()] },
          }),
        ],
        test: { name: "workerd", include: ["test/**/*.test.ts"], exclude: [MODEL_DOWN_TESTS] },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings,
              workers: [
                {
                  name: EMBEDDER_NAME,
                  modules: true,
                  script: `export default { fetch: () => new Response("model unavailable", { status: 503 }) };`,
                  compatibilityDate: "2026-11-01",
                },
              ],
            },
          }),
        ],
        test: { name: "model-down", include: [MODEL_DOWN_TESTS] },
      },
    ],
  },
});
