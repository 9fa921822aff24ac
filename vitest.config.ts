import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { EMBEDDER_NAME, embedderWorker } from "./embedder/options.mjs";
import { startDohServer } from "./scripts/doh-server.mjs";

// A real DNS-over-HTTPS resolver (scripts/doh-server.mjs) for the Worker under test: custom
// hostname TXT proofs and the addresses server-side fetches resolve to. Tests publish records
// on it over HTTP; it lives as long as this vitest process (unref'd, it keeps nothing open).
const doh = await startDohServer();

// Tests of what happens when the embedding model is down run against a stand-in
// that answers every call with 503, under the embedder's own service name.
const MODEL_DOWN_TESTS = "test/search-model-down.test.ts";
const modelDown = {
  name: EMBEDDER_NAME,
  modules: true,
  script: `export default { fetch: () => new Response("model unavailable", { status: 503 }) };`,
  compatibilityDate: "2026-11-01",
};
// A model of one Vectorize index (test/fixtures/vectorize-model.mjs), bound as VECTORIZE over RPC.
const vectorizeModel = {
  name: "vectorize-model",
  modules: true,
  scriptPath: "./test/fixtures/vectorize-model.mjs",
  compatibilityDate: "2026-11-01",
};
const VECTORIZE_TESTS = "test/vectorize/**/*.test.ts";
const cloudflareApiMock = {
  name: "cloudflare-api-mock",
  modules: true,
  scriptPath: "./test/fixtures/cloudflare-api-mock.mjs",
  compatibilityDate: "2026-11-01",
};

const BINDINGS = {
  ADMIN_TOKEN: "test-operator-token",
  SITE_ID_SECRET: "test-site-id-secret-0123456789",
  AUTH_SECRET: "test-auth-secret-0123456789abcdef",
  // Account mail goes to the mail catcher the global setup runs (test/node/workers-setup.ts).
  MAIL_TRANSPORT: "smtp",
  SMTP_HOST: "127.0.0.1",
  SMTP_SECURE: "false",
  SMTP_STARTTLS: "false",
  DOH_URL: doh.url,
  // No site here predates the MAC in site ids: an id without it is refused by the front Worker.
  LEGACY_SITE_IDS: "refuse",
  LEGACY_WORKSPACE_IDS: "refuse",
  SITE_META_TTL_MS: "1000",
  SSR_ALLOW_PRIVATE_FETCH: "true",
  SERVICE_HOSTNAMES: "api.test,localhost,127.0.0.1",
  CUSTOM_HOSTNAMES: "local",
  CUSTOM_HOSTNAME_CNAME_TARGET: "ssr.api.test",
  // A stalled request body is cut after 2 s here (10 s in wrangler.toml), so the tests of it stay short.
  BODY_READ_TIMEOUT_MS: "2000",
  // Slow customer pages time out after 4 s here (10 s in wrangler.toml).
  SSR_FETCH_TIMEOUT_MS: "4000",
  // An outbound webhook receiver has 2 s here (10 s in wrangler.toml): the timeout tests stay short.
  WEBHOOK_TIMEOUT_MS: "2000",
};

/**
 * The Rate Limiting bindings of wrangler.toml (what strangers reach before a credential is known),
 * lifted far above what any behaviour test sends (a fuzz test captures dozens of pages for one
 * site). A site's own limits (reads, search, writes) keep their documented defaults in every
 * project; the bindings' own numbers are tested in the `rate-limits` project.
 */
const LIFTED_RATE_LIMITS = Object.fromEntries(
  ["RL_WRITES", "RL_CAPTURE", "RL_OPERATOR", "RL_WEBHOOK"].map((name, i) => [
    name,
    { namespace_id: String(1003 + i), simple: { limit: 1_000_000, period: 60 } },
  ]),
);
// Traffic tests: the bindings with wrangler.toml's own numbers, and the site limits' defaults.
const RATE_LIMIT_TESTS = ["test/security/rate-limits.test.ts", "test/limits/**/*.test.ts"];

interface WorkerdProject {
  include: string[];
  /** Keep wrangler.toml's rate limits (only the project that tests them). */
  realRateLimits?: boolean;
  exclude?: string[];
  bindings?: Record<string, string>;
  /** Auxiliary Workers; by default the local embedder (built by `pretest`) behind the EMBEDDER binding. */
  workers?: object[];
  outboundService?: string;
  /** Bindings to auxiliary Workers by name (a Worker standing in for a Cloudflare product). */
  serviceBindings?: Record<string, string>;
}

/** A project whose tests run inside workerd, through the real front Worker and Durable Objects. */
function workerd(name: string, p: WorkerdProject) {
  return {
    plugins: [
      // A function: the mail catcher's port is known only once the global setup has started it.
      cloudflareTest(({ inject }) => ({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: { ...BINDINGS, SMTP_PORT: String(inject("mailSmtpPort")), ...p.bindings },
          workers: p.workers ?? [embedderWorker()],
          ...(p.realRateLimits ? {} : { ratelimits: LIFTED_RATE_LIMITS }),
          ...(p.outboundService ? { outboundService: p.outboundService } : {}),
          ...(p.serviceBindings ? { serviceBindings: p.serviceBindings } : {}),
        },
      })),
    ],
    test: {
      name,
      include: p.include,
      exclude: p.exclude ?? [],
      // The customer-site page server that captures fetch from, and the mail catcher.
      globalSetup: ["./test/node/workers-setup.ts"],
      testTimeout: 30_000,
    },
  };
}

export default defineConfig({
  test: {
    projects: [
      workerd("workers", {
        include: ["test/**/*.test.ts"],
        exclude: [
          "test/browser/**",
          "test/e2e/**",
          "test/unit/**",
          "test/unconfigured/**",
          "test/saas/**",
          "test/incomplete/**",
          MODEL_DOWN_TESTS,
          ...RATE_LIMIT_TESTS,
          VECTORIZE_TESTS,
        ],
      }),
      // Production's vector index (Vectorize, through its adapter) against the model above.
      workerd("workers-vectorize", {
        include: [VECTORIZE_TESTS],
        bindings: { SEARCH_VECTOR_INDEX: "vectorize" },
        workers: [vectorizeModel, embedderWorker()],
        serviceBindings: { VECTORIZE: "vectorize-model" },
      }),
      workerd("rate-limits", { include: RATE_LIMIT_TESTS, realRateLimits: true }),
      workerd("model-down", { include: [MODEL_DOWN_TESTS], workers: [modelDown] }),
      // Production's custom hostname provider (Cloudflare for SaaS) end to end through the site
      // object, against the API mock as the Worker's outbound service.
      workerd("workers-saas", {
        include: ["test/saas/**/*.test.ts"],
        bindings: {
          CUSTOM_HOSTNAMES: "cloudflare",
          CUSTOM_HOSTNAME_CNAME_TARGET: "ssr.example.net",
          CF_API_BASE: "https://api.cloudflare.test/client/v4",
          CF_API_TOKEN: "test-api-token",
          CF_ZONE_ID: "test-zone",
        },
        workers: [cloudflareApiMock, embedderWorker()],
        outboundService: "cloudflare-api-mock",
      }),
      // Production's settings as wrangler.toml leaves them until the deploy fills them in: Cloudflare
      // for SaaS credentials, but no list of the service's own hosts and no CNAME target.
      workerd("workers-incomplete", {
        include: ["test/incomplete/**/*.test.ts"],
        bindings: {
          CUSTOM_HOSTNAMES: "cloudflare",
          SERVICE_HOSTNAMES: "",
          CUSTOM_HOSTNAME_CNAME_TARGET: "",
          CF_API_BASE: "https://api.cloudflare.test/client/v4",
          CF_API_TOKEN: "test-api-token",
          CF_ZONE_ID: "test-zone",
        },
        workers: [cloudflareApiMock, embedderWorker()],
        outboundService: "cloudflare-api-mock",
      }),
      // A deployment without custom hostnames (no Cloudflare for SaaS credentials), where plans are
      // sold by the operator rather than self-served ([env.production.vars]'s SELF_SERVE_PLANS).
      workerd("workers-unconfigured", {
        include: ["test/unconfigured/**/*.test.ts"],
        bindings: { CUSTOM_HOSTNAMES: "cloudflare", SELF_SERVE_PLANS: "off", PLANS_CONTACT: "mailto:sales@example.com" },
      }),
      {
        // The customer's reverse-proxy Worker (proxy/), its own deployable, in workerd.
        plugins: [
          cloudflareTest({ wrangler: { configPath: "./proxy/wrangler.toml" }, miniflare: { bindings: { SERVICE_TOKEN: "unused" } } }),
        ],
        test: { name: "proxy", include: ["proxy/test/**/*.test.ts"], globalSetup: ["./proxy/test/echo-server.ts"] },
      },
      {
        // Pure logic (list parameters, binding rules, escaping, rich-text cleanup, SEO meta, slugs,
        // the contract, logs) in plain Node: seconds, no runtime. Behaviour stays tested in workerd.
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node" },
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
