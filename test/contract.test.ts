/**
 * The contract test: every operation of openapi.json is called through the real
 * front Worker and site objects, with its success and each documented error, and
 * every answer is held to the document (test/contract/document.ts). An answer the
 * document does not describe fails; so does a documented answer no call produced.
 */
import { afterAll, describe, expect, it } from "vitest";
import { OPERATOR } from "./helpers";
import { OPERATIONS, documentedAnswers, exampleProblems } from "./contract/document";
import { accountCalls } from "./contract/account-calls";
import { contentCalls } from "./contract/content-calls";
import { fileCalls } from "./contract/file-calls";
import { redirectCalls } from "./contract/redirect-calls";
import { localeCalls } from "./contract/locale-calls";
import { UNKNOWN_SITE, big, fill, fixture, hit, seen } from "./contract/hit";

/** Answers other projects produce (they need another deployment), by the file that checks them. */
const ELSEWHERE: Record<string, string> = {
  "search 502 embedding_failed": "test/search-model-down.test.ts (model-down project)",
  "putCustomHostname 501 not_configured": "test/unconfigured/custom-hostname-not-configured.test.ts",
  "getCustomHostname 501 not_configured": "test/unconfigured/custom-hostname-not-configured.test.ts",
  "deleteCustomHostname 501 not_configured": "test/unconfigured/custom-hostname-not-configured.test.ts",
  "putCustomHostname 502 bad_gateway": "test/saas/custom-hostname-cloudflare.test.ts (workers-saas project)",
  // A membership push that fails (the Account unreachable): the outbox path, not producible through the front Worker here.
  "acceptInvitation 502 bad_gateway": "actors/workspace/outbox.ts (not exercised: needs an unreachable Account object)",
  "acceptInvitationWithNewAccount 502 bad_gateway": "actors/workspace/outbox.ts (not exercised: needs an unreachable Account object)",
  "acceptInvitationWithNewPasskey 502 bad_gateway": "actors/workspace/outbox.ts (not exercised: needs an unreachable Account object)",
  "updateMember 502 bad_gateway": "actors/workspace/outbox.ts (not exercised: needs an unreachable Account object)",
  "removeMember 502 bad_gateway": "actors/workspace/outbox.ts (not exercised: needs an unreachable Account object)",
  "transferOwnership 502 bad_gateway": "actors/workspace/outbox.ts (not exercised: needs an unreachable Account object)",
  "changePlan 502 bad_gateway": "actors/workspace/plan-route.ts (not exercised: needs a site object that fails)",
  "deleteWorkspace 502 bad_gateway": "actors/workspace.ts #destroySites (not exercised: needs a site object that fails)",
  "createApiKey 409 conflict": "actors/workspace/api-keys.ts MAX_API_KEYS (100 keys; not exercised)",
  "createWorkspace 409 conflict": "src/dashboard/routes.ts MAX_MEMBERSHIPS (50 workspaces per account; not exercised)",
  "putItemSchedule 409 conflict": "actors/site/history/schedule.ts MAX_SCHEDULED (1,000 scheduled items per site; not exercised)",
};

describe("the API answers exactly as openapi.json describes", () => {
  contentCalls();
  accountCalls();
  fileCalls();
  redirectCalls();
  localeCalls();

  it("describes the service's own documents", async () => {
    await hit("getServiceInfo", "GET", "/");
    const script = await hit("getEmbedScript", "GET", "/embed.js");
    await hit("getEmbedScript", "GET", "/embed.js", { headers: { "if-none-match": script.headers.get("etag")! } });
    const doc = await hit("getOpenApi", "GET", "/openapi.json");
    expect(doc.body.openapi).toBe("3.1.0");
    const docs = await hit("getApiReference", "GET", "/docs");
    expect(docs.headers.get("x-frame-options")).toBe("DENY");
    expect(docs.headers.get("content-security-policy")).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'.*frame-ancestors 'none'/);
    await hit("getApiReferenceAsset", "GET", "/docs/swagger-ui-bundle.js");
    await hit("getApiReferenceAsset", "GET", "/docs/nope.js");
  });

  it("describes the errors every authenticated call and every JSON body can cause", async () => {
    const f = await fixture();
    for (const op of OPERATIONS) {
      // Server rendering checks the plan before it reads a body; the fixture's item is the pro blog's.
      const site = op.path.includes("/ssr/") ? f.seo : f.blog;
      const security = (op.spec.security ?? []) as Record<string, unknown>[];
      const method = op.method.toUpperCase();
      const path = fill(op.path, site, f);
      const needsKey = security.some((s) => "siteKey" in s || "operator" in s);
      if (needsKey) {
        await hit(op.id, method, path, { auth: null });
        // A change made with a session cookie from another origin is refused before anything else.
        const cookie = `__Host-oc_session=ss_${site.id}_${"a".repeat(40)}`;
        if (method !== "GET") await hit(op.id, method, path, { auth: null, headers: { cookie, origin: "https://elsewhere.test" } });
        if (op.path.startsWith("/sites/{siteId}")) await hit(op.id, method, fill(op.path, site, f, UNKNOWN_SITE), { auth: OPERATOR });
      }
      // A change of an item sent against a version it never had (`If-Match`): 412, nothing changed.
      const params = (op.spec.parameters ?? []) as { name?: string; in?: string }[];
      if (params.some((p) => p.in === "header" && p.name === "if-match")) {
        const stale = await hit(op.id, method, path, {
          auth: OPERATOR,
          headers: { "if-match": '"r0"' },
          ...(op.spec.requestBody !== undefined ? { body: {} } : {}),
        });
        expect(stale.status, `${op.id} with a stale If-Match`).toBe(412);
      }
      const takesJson = op.spec.requestBody !== undefined && op.id !== "ssrWebhook" && op.id !== "ssrWebhookLegacy";
      if (takesJson) {
        await hit(op.id, method, path, { auth: OPERATOR, body: "[]" });
        await hit(op.id, method, path, { auth: OPERATOR, body: big() });
        await hit(op.id, method, path, { auth: OPERATOR, body: "name=x", headers: { "content-type": "text/plain" } });
      }
    }
  });

  it("shows examples (real answers) that match their schemas", () => {
    const { examples, problems } = exampleProblems();
    expect(examples).toBeGreaterThan(5);
    expect(problems).toEqual([]);
  });

  afterAll(() => {
    // Runs after every test above: each documented answer was produced and checked.
    // 429 rate_limited is produced per policy, not per operation, in test/security/rate-limits.test.ts.
    const missing = documentedAnswers().filter(
      (a) => !seen.has(a) && !ELSEWHERE[a] && !(a.endsWith(" 429 rate_limited") && a !== "signIn 429 rate_limited"),
    );
    expect(missing).toEqual([]);
  });
});
