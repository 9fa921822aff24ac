import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { EMBEDDER_NAME, embedderWorker } from "./embedder/options.mjs";

// Tests of what happens when the embedding model is down run against a stand-in
// that answers every call with 503, under the embedder's own service name.
const MODEL_DOWN_TESTS = "test/search-model-down.test.ts";

export default defineConfig({
  test: {
    projects: [
      {
        // Everything that runs inside workerd, through the real front Worker and Durable Objects.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                ADMIN_TOKEN: "test-operator-token",
                SITE_META_TTL_MS: "1000",
                SSR_ALLOW_PRIVATE_FETCH: "true",
                SERVICE_HOSTNAMES: "api.test,localhost,127.0.0.1",
                CUSTOM_HOSTNAMES: "local",
                CUSTOM_HOSTNAME_CNAME_TARGET: "ssr.api.test",
              },
              // The local embedder (built by `pretest`), reached through the EMBEDDER service binding.
              workers: [embedderWorker()],
            },
          }),
        ],
        test: {
          name: "workers",
          include: ["test/**/*.test.ts"],
          exclude: ["test/browser/**", "test/e2e/**", "test/unconfigured/**", "test/saas/**", MODEL_DOWN_TESTS],
          globalSetup: ["./test/node/workers-setup.ts"],
          testTimeout: 30_000,
        },
      },
      {
        // Search with the embedding model down (a stand-in answering 503 under the embedder's name).
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: { ADMIN_TOKEN: "test-operator-token", SITE_META_TTL_MS: "1000", SERVICE_HOSTNAMES: "api.test" },
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
        test: { name: "model-down", include: [MODEL_DOWN_TESTS], globalSetup: ["./test/node/workers-setup.ts"], testTimeout: 30_000 },
      },
      {
        // Production's custom hostname provider (Cloudflare for SaaS) end to end through the site
        // object, against the API mock as the Worker's outbound service (test/fixtures/cloudflare-api-mock.mjs).
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                ADMIN_TOKEN: "test-operator-token",
                SSR_ALLOW_PRIVATE_FETCH: "true",
                SERVICE_HOSTNAMES: "api.test",
                CUSTOM_HOSTNAMES: "cloudflare",
                CUSTOM_HOSTNAME_CNAME_TARGET: "ssr.example.net",
                CF_API_BASE: "https://api.cloudflare.test/client/v4",
                CF_API_TOKEN: "test-api-token",
                CF_ZONE_ID: "test-zone",
              },
              outboundService: "cloudflare-api-mock",
              workers: [
                {
                  name: "cloudflare-api-mock",
                  modules: true,
                  scriptPath: "./test/fixtures/cloudflare-api-mock.mjs",
                  compatibilityDate: "2026-11-01",
                },
                embedderWorker(),
              ],
            },
          }),
        ],
        test: {
          name: "workers-saas",
          include: ["test/saas/**/*.test.ts"],
          globalSetup: ["./test/node/workers-setup.ts"],
        },
      },
      {
        // The same Worker on a deployment without custom hostnames (no Cloudflare for SaaS credentials).
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                ADMIN_TOKEN: "test-operator-token",
                SSR_ALLOW_PRIVATE_FETCH: "true",
                SERVICE_HOSTNAMES: "api.test",
                CUSTOM_HOSTNAMES: "cloudflare",
              },
              workers: [embedderWorker()],
            },
          }),
        ],
        test: {
          name: "workers-unconfigured",
          include: ["test/unconfigured/**/*.test.ts"],
          globalSetup: ["./test/node/workers-setup.ts"],
        },
      },
      {
        // The customer's reverse-proxy Worker (proxy/), its own deployable, in workerd.
        plugins: [
          cloudflareTest({ wrangler: { configPath: "./proxy/wrangler.toml" }, miniflare: { bindings: { SERVICE_TOKEN: "unused" } } }),
        ],
        test: {
          name: "proxy",
          include: ["proxy/test/**/*.test.ts"],
          globalSetup: ["./proxy/test/echo-server.ts"],
        },
      },
      {
        // From outside, in Node: Chromium (Debian's, via playwright-core), xmllint and a feed
        // parser, against the built Worker on workerd.
        test: {
          name: "e2e",
          include: ["test/browser/**/*.test.ts", "test/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["./test/node/browser-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
