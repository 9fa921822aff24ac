import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { embedderWorker } from "./embedder/options.mjs";

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: { ADMIN_TOKEN: "test-operator-token", SITE_META_TTL_MS: "1000" },
        // The local embedder (built by `pretest`), reached through the EMBEDDER service binding.
        workers: [embedderWorker()],
      },
    }),
  ],
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
  },
});
