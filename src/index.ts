import { IttyRouter } from "itty-router";
import { BODY_LIMITS, BodyGuard, type BodyLimits } from "./http/body-guard";
import { ApiError } from "./contract/errors";
import { errorResponse, toErrorResponse } from "./http/errors";
import { mayBeIssued } from "./edge/issued";
import { enforce, withPolicies } from "./limits/rate-limit";
import { policiesFor } from "./limits/policies";
import { clientKey } from "./limits/client";
import { json } from "./http/json";
import { contentUrl, keepContentUrl } from "./edge/content-key";
import { CORS_HEADERS, contentApi, contentHit, contentMiss, planRefusal, withCors } from "./content/routes";
import { knownSiteMeta, renewAhead } from "./edge/site-meta";
import { customHostRequest, isServiceHost } from "./routing/custom-host";
import { forVisitor } from "./http/visitor-errors";
import { embedScript } from "./ssr/embed-script";
import { renderedPage, ssrWebhook } from "./ssr/routes";
import { SERVICE_TOKEN_HEADER } from "./contract/headers";
import { dashboardAsset } from "./dashboard/assets";
import { requestTarget, withFrontHeaders } from "./http/response-headers";
import { contentRefusal, dashboardRefusal } from "./routing/refusals";
import { type RawTarget, rawTarget } from "./http/raw-target";
import { MEDIA_LIMITS } from "./contract/limits";
import { IMPORT_LIMITS } from "./contract/imports";
import { parseMediaPath } from "./media/urls";
import { httpsOnly, localHttp } from "./http/plain-http";

type Args = [Env, ExecutionContext];

// Dashboard writes, sign-in and accounts validate their bodies with zod (0.8 MB of the bundle): their
// routes load on first use, so an isolate that only serves public reads never evaluates them
// (docs/caching.md; npm run check fails if zod is evaluated at start-up again).
const dashboard = () => import("./dashboard/routes");
const sessions = () => import("./accounts/session-routes");
const accounts = () => import("./accounts/routes");
const passkeys = () => import("./accounts/passkey-routes");
const invitations = () => import("./accounts/invitation-routes");
const mediaUpload = () => import("./media/upload-route");
const mediaServe = () => import("./media/serve-route");
const imports = () => import("./imports/routes");
const preview = () => import("./preview/routes");

async function siteIdParam(env: Env, raw: string | undefined): Promise<string> {
  if (!raw || !(await mayBeIssued(env, raw))) throw new ApiError("not_found", "Unknown webhook URL.");
  return raw;
}

const router = IttyRouter<import("itty-router").IRequest, Args>()
  .get("/", () => json({ service: "open-content-edge", docs: "/docs", openapi: "/openapi.json" }, 200))
  .get("/embed.js", (req) => embedScript(req))
  .get("/dashboard", (req, env) => dashboardAsset(req, env))
  .get("/dashboard/*", (req, env) => dashboardAsset(req, env))
  .post("/sessions", async (req, env, ctx) => (await sessions()).signIn(req, env, ctx))
  .get("/sessions/current", async (req, env) => (await sessions()).currentSession(req, env))
  .get("/sessions/current/status", async (req, env) => (await sessions()).sessionStatus(req, env))
  .delete("/sessions/current", async (req, env) => (await sessions()).signOut(req, env))
  .post("/accounts", async (req, env, ctx) => (await accounts()).signUp(req, env, ctx))
  .post("/accounts/verify", async (req, env) => (await accounts()).verifySignUp(req, env))
  .post("/account/password-reset", async (req, env, ctx) => (await accounts()).requestPasswordReset(req, env, ctx))
  .post("/account/password-reset/confirm", async (req, env, ctx) => (await accounts()).confirmPasswordReset(req, env, ctx))
  .get("/account/sessions", async (req, env) => (await accounts()).listAccountSessions(req, env))
  .delete("/account/sessions/:id", async (req, env) => (await accounts()).endAccountSession(req, env, req.params.id))
  .post("/account/passkeys/options", async (req, env) => (await passkeys()).passkeyRegistrationOptions(req, env))
  .post("/account/passkeys", async (req, env, ctx) => (await passkeys()).addPasskey(req, env, ctx))
  .get("/account/passkeys", async (req, env) => (await passkeys()).listPasskeys(req, env))
  .patch("/account/passkeys/:id", async (req, env) => (await passkeys()).renamePasskey(req, env, req.params.id))
  .delete("/account/passkeys/:id", async (req, env, ctx) => (await passkeys()).removePasskey(req, env, ctx, req.params.id))
  .post("/sessions/passkey/options", async (req, env) => (await passkeys()).passkeySignInOptions(req, env))
  .post("/sessions/passkey", async (req, env, ctx) => (await passkeys()).passkeySignIn(req, env, ctx))
  .post("/accounts/verify/passkey/options", async (req, env) => (await passkeys()).passkeySignUpOptions(req, env))
  .post("/accounts/verify/passkey", async (req, env) => (await passkeys()).passkeySignUp(req, env))
  // The API description and its viewer (2.1 MB of the bundle) are evaluated on first use, not at start-up.
  .get("/openapi.json", async (req) => (await import("./api-docs/routes")).openApiDocument(req))
  .get("/docs", async (req) => (await import("./api-docs/routes")).apiReference(req))
  .get("/docs/:asset", async (req) => (await import("./api-docs/routes")).apiReference(req, req.params.asset))
  .post("/hooks/ssr/:siteId", async (req, env) => {
    const siteId = await siteIdParam(env, req.params.siteId);
    // Per sender: the site id is public (it is in every token), so a stranger's unsigned posts
    // must spend the stranger's bucket, never the one the builder's signed deliveries count in.
    await enforce(env, "webhook", `${clientKey(req, env)}|${siteId}`);
    return ssrWebhook(req, env, siteId);
  })
  // The old form with the secret in the path: hooks made before it was retired, until a rotation.
  .post("/hooks/ssr/:siteId/:secret", async (req, env) => {
    const siteId = await siteIdParam(env, req.params.siteId);
    // Per sender: the site id is public (it is in every token), so a stranger's unsigned posts
    // must spend the stranger's bucket, never the one the builder's signed deliveries count in.
    await enforce(env, "webhook", `${clientKey(req, env)}|${siteId}`);
    return ssrWebhook(req, env, siteId);
  })
  // Share links: the service's own hosts only (the router is never reached from a customer hostname or the proxy).
  .get("/p/", async () => (await import("./http/share-opener")).shareOpener())
  .post("/p/open", async (req, env) => (await preview()).previewByForm(req, env))
  .get("/p/:token", async (req, env) => (await preview()).previewLink(req, env, req.params.token ?? ""))
  .post("/p/:token", async (req, env) => (await preview()).previewLink(req, env, req.params.token ?? ""))
  .options("/v1/*", () => new Response(null, { status: 204, headers: CORS_HEADERS }))
  .get("/v1/*", (req, env, ctx) => contentApi(req, env, ctx))
  .post("/v1/:token/seen", async (req, env) => (await import("./content/seen-route")).widgetSeen(req, env, req.params.token ?? ""))
  .post("/workspaces", async (req, env) => (await dashboard()).createWorkspace(req, env))
  .all("/workspaces/:id", async (req, env) => (await dashboard()).workspaceDashboard(req, env, req.params.id))
  .all("/workspaces/:id/*", async (req, env) => (await dashboard()).workspaceDashboard(req, env, req.params.id))
  .post("/sites", async (req, env) => (await dashboard()).createSite(req, env))
  .post("/invitations/lookup", async (req, env) => (await invitations()).lookupInvitation(req, env))
  .post("/invitations/accept", async (req, env) => (await invitations()).acceptInvitation(req, env))
  .post("/invitations/accept/new-account", async (req, env) => (await invitations()).acceptWithNewAccount(req, env))
  .post("/invitations/accept/new-account/passkey/options", async (req, env) => (await passkeys()).invitationPasskeyOptions(req, env))
  .post("/invitations/accept/new-account/passkey", async (req, env) => (await passkeys()).acceptWithNewPasskey(req, env))
  .post("/invitations/stop-mail", async (req, env) => (await invitations()).stopInvitationMail(req, env))
  // Uploads stream into R2 from here (the body never goes through the site object); files are served by path.
  .post("/sites/:siteId/media/files", async (req, env) => (await mediaUpload()).uploadMedia(req, env, req.params.siteId))
  .put("/sites/:siteId/media/:mediaId/file", async (req, env) =>
    (await mediaUpload()).replaceMedia(req, env, req.params.siteId, req.params.mediaId ?? ""),
  )
  .get("/m/*", async (req, env, ctx) => {
    const target = parseMediaPath(new URL(req.url).pathname, true);
    if (!target?.siteId) throw new ApiError("not_found", "No such media file.");
    return (await mediaServe()).serveMedia(req, env, ctx, target.siteId, target);
  })
  // Import files are parsed here, a record at a time; the site object gets batches of parsed rows.
  .post("/sites/:siteId/collections/:slug/imports", async (req, env) =>
    (await imports()).uploadImport(req, env, req.params.siteId, decodeURIComponent(req.params.slug ?? "")),
  )
  .post("/sites/:siteId/imports", async (req, env) => (await imports()).uploadImport(req, env, req.params.siteId, null))
  .all("/sites/:siteId", async (req, env) => (await dashboard()).siteDashboard(req, env, req.params.siteId))
  .all("/sites/:siteId/*", async (req, env) => (await dashboard()).siteDashboard(req, env, req.params.siteId));

/** Tests and local runs may shorten the read timeout (BODY_READ_TIMEOUT_MS); the byte limit is the contract's. */
function bodyLimits(env: Env): BodyLimits {
  const idle = Number(env.BODY_READ_TIMEOUT_MS);
  return Number.isFinite(idle) && idle > 0 ? { ...BODY_LIMITS, idleMs: idle, totalMs: Math.max(idle, BODY_LIMITS.totalMs) } : BODY_LIMITS;
}

export default {
  fetch(request, env, ctx): Response | Promise<Response> {
    const href = request.url;
    // Plain http outside local runs takes the full way, which sends it to https or refuses it.
    const early = request.body === null && !request.headers.has(SERVICE_TOKEN_HEADER) && (href.startsWith("https:") || localHttp(env));
    // The request target read off the string, worked out at most once (null: not a plain URL).
    let target: RawTarget | null | undefined;
    // A public read this isolate already holds (most requests, and the ones every visitor pays
    // for) is answered here, synchronously, with the front headers baked into the held answer;
    // anything it cannot answer outright goes the full way.
    const method = request.method;
    if (early && (method === "GET" || method === "HEAD")) {
      // A plain path outside /v1/ (the dashboard API) is no content read: not looked up or parsed as one.
      const read = onContentPath(href) || (target = rawTarget(href)) === null ? contentUrl(href, false) : null;
      if (read && isServiceHost(env, read.host)) {
        const hit = contentHit(request, env, read);
        if (hit) {
          keepContentUrl(href, read);
          renewAhead(env, ctx, read.siteId);
          return method === "HEAD" ? new Response(null, hit) : hit;
        }
        // A made-up token, a wrong one, a client already refused: answered before the full path,
        // and the URL is not remembered (see contentUrl).
        const refused = contentRefusal(request, env, read);
        if (refused) return refused;
        // A GET of a site this isolate knows, that its memory does not hold: the edge cache and the
        // site object, without the router and the full path's wrapping (the same answer).
        const meta = method === "GET" ? knownSiteMeta(read.token, read.siteId) : null;
        if (meta && !planRefusal(meta.plan, read)) {
          keepContentUrl(href, read);
          return contentMiss(request, env, ctx, read, meta);
        }
      }
    }
    // A dashboard call with an admin key of a site id nobody was issued: refused before the router.
    if (early && request.headers.has("authorization")) {
      if (target === undefined) target = rawTarget(href);
      const refused = target && isServiceHost(env, target.host) ? dashboardRefusal(request, env, target) : null;
      if (refused) return refused;
    }
    return full(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;

/**
 * Whether the URL's path starts with `/v1/`, from the string alone (`http://host/v1/...`). False
 * says only that the written path does not: the caller then reads the target (rawTarget), and a
 * path that is not plain (dot segments, escapes) still goes to contentUrl's parser.
 */
function onContentPath(href: string): boolean {
  const slash = href.indexOf("/", href.indexOf("//") + 2);
  return slash >= 0 && href.startsWith("/v1/", slash);
}

async function full(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const url = requestTarget(request.url);
  // The Host the client asked for (workerd builds request.url from it).
  const serviceHost = url === null || isServiceHost(env, url.host);
  if (url === null) return withFrontHeaders(oddTarget(request), false, serviceHost);
  if (serviceHost && url.protocol === "http:" && !localHttp(env)) {
    const plain = httpsOnly(request, url);
    // A public read's redirect carries CORS headers: browsers check them before following it.
    return withFrontHeaders(url.pathname.startsWith("/v1/") ? withCors(plain) : plain, false, true);
  }
  const answered = withPolicies(await answer(request, env, ctx, url), policiesFor(request, url.pathname, serviceHost));
  return withFrontHeaders(answered, url.protocol === "https:", serviceHost);
}

/**
 * `GET * HTTP/1.1` and its kin: the asterisk form is only meaningful for OPTIONS (the server as
 * a whole), and nothing else here has a path to route. Answered before any object is touched.
 */
function oddTarget(request: Request): Response {
  if (request.method === "OPTIONS")
    return new Response(null, { status: 204, headers: { allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" } });
  return errorResponse("bad_request", "The request target must be a path (the asterisk form * is only for OPTIONS).");
}

/** A media upload's body may be up to the request cap and take minutes; its idle limit is everyone's. */
const UPLOAD_PATH = /^\/sites\/[^/]+\/media\/files$/;
const REPLACE_PATH = /^\/sites\/[^/]+\/media\/[^/]+\/file$/;
function uploadLimits(env: Env): BodyLimits {
  return { maxBytes: MEDIA_LIMITS.requestBytes, idleMs: bodyLimits(env).idleMs, totalMs: MEDIA_LIMITS.uploadTotalMs };
}

/** An import file may be up to IMPORT_LIMITS.bytes and take minutes to arrive. */
const IMPORT_PATH = /^\/sites\/[^/]+(?:\/collections\/[^/]+)?\/imports$/;
function importLimits(env: Env): BodyLimits {
  return { maxBytes: IMPORT_LIMITS.bytes, idleMs: bodyLimits(env).idleMs, totalMs: IMPORT_LIMITS.uploadTotalMs };
}

/**
 * The dashboard API on the service's own hosts (/sites…, /workspaces…; uploads and imports stream
 * theirs): every route there reads its body whole before forwarding anything (dashboard.ts), so
 * the body guard reads it for them without wrapping it in a stream (BodyGuard `whole`).
 */
const WHOLE_BODY_PATH = /^\/(?:sites|workspaces)(?:\/|$)/;

async function answer(request: Request, env: Env, ctx: ExecutionContext, url: URL): Promise<Response> {
  const isHead = request.method === "HEAD";
  const upload =
    (request.method === "POST" && UPLOAD_PATH.test(url.pathname)) || (request.method === "PUT" && REPLACE_PATH.test(url.pathname));
  const importing = request.method === "POST" && IMPORT_PATH.test(url.pathname);
  const whole =
    !upload &&
    !importing &&
    WHOLE_BODY_PATH.test(url.pathname) &&
    isServiceHost(env, url.host) &&
    !request.headers.has(SERVICE_TOKEN_HEADER);
  const guard = new BodyGuard(request, upload ? uploadLimits(env) : importing ? importLimits(env) : bodyLimits(env), whole);
  const req = isHead ? new Request(request, { method: "GET" }) : guard.request;
  let response: Response;
  try {
    const refused = guard.failure();
    if (refused) throw refused;
    const serviceToken = request.headers.get(SERVICE_TOKEN_HEADER);
    // A custom hostname is routed by its Host alone: a client's x-service-token there changes nothing.
    if (!isServiceHost(env, url.host)) response = await customHostRequest(req, env, ctx, url.host);
    else if (serviceToken) response = await renderedPage(req, env, ctx, serviceToken);
    else response = (await router.fetch(req, env, ctx)) ?? errorResponse("not_found", "No such endpoint.");
  } catch (err) {
    response = toErrorResponse(err);
  }
  // A body cut for its size or pace: the route saw a broken stream; the client gets why.
  const refused = guard.failure();
  if (refused) response = toErrorResponse(refused);
  // A rendered page's visitor (a customer's hostname, or their proxy) reads words, not our envelope.
  if (!isServiceHost(env, url.host) || request.headers.has(SERVICE_TOKEN_HEADER)) response = forVisitor(request, response);
  await guard.settle();
  if (url.pathname.startsWith("/v1/") && !response.headers.has("access-control-allow-origin")) {
    response = withCors(response);
  }
  return isHead ? new Response(null, response) : response;
}
