import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: { ADMIN_TOKEN: "test-operator-token", SITE_META_TTL_MS: "1000", SSR_ALLOW_PRIVATE_FETCH: "true" },
      },
    }),
  ],
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/browser/**"],
    globalSetup: ["./test/node/page-server.ts"],
    testTimeout: 30_000,
  },
});
