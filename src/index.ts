import { IttyRouter } from "itty-router";
import { ApiError, errorResponse, toErrorResponse } from "./http/errors";
import { isSiteId } from "./ids";
import { json } from "./http/json";
import { CORS_HEADERS, contentApi, searchPlanCheck, withCors } from "./routes/content";
import { customHostRequest, isServiceHost } from "./routes/custom-host";
import { embedScript } from "./routes/embed";
import { renderedPage, SERVICE_TOKEN_HEADER, ssrWebhook } from "./routes/render";
import { createSite, createWorkspace, getWorkspace, patchWorkspace, siteDashboard } from "./routes/dashboard";

export { Site } from "../actors/site";
export { Workspace } from "../actors/workspace";
export { Hostname } from "../actors/hostname";

type Args = [Env, ExecutionContext];

function siteIdParam(raw: string | undefined): string {
  if (!raw || !isSiteId(raw)) throw new ApiError("not_found", "Unknown webhook URL.");
  return raw;
}

const router = IttyRouter<import("itty-router").IRequest, Args>()
  .get("/", () => json({ service: "open-content-edge", docs: "https://github.com/ (see README.md)" }, 200))
  .get("/embed.js", (req) => embedScript(req))
  .post("/hooks/ssr/:siteId/:secret", (req, env) => ssrWebhook(req, env, siteIdParam(req.params.siteId)))
  .options("/v1/*", () => new Response(null, { status: 204, headers: CORS_HEADERS }))
  .get("/v1/:token/collections/:slug/items", (req, env, ctx) => contentApi(req, env, ctx, req.params.token ?? ""))
  .get("/v1/:token/collections/:slug/items/:itemSlug", (req, env, ctx) => contentApi(req, env, ctx, req.params.token ?? ""))
  .get("/v1/:token/search", (req, env, ctx) => contentApi(req, env, ctx, req.params.token ?? "", searchPlanCheck, "body"))
  .get("/v1/:token/collections/:slug/items/:itemSlug/related", (req, env, ctx) =>
    contentApi(req, env, ctx, req.params.token ?? "", searchPlanCheck, "body"),
  )
  .post("/workspaces", (req, env) => createWorkspace(req, env))
  .get("/workspaces/:id", (req, env) => getWorkspace(req, env, req.params.id))
  .patch("/workspaces/:id", (req, env) => patchWorkspace(req, env, req.params.id))
  .post("/sites", (req, env) => createSite(req, env))
  .all("/sites/:siteId", (req, env) => siteDashboard(req, env, req.params.siteId))
  .all("/sites/:siteId/*", (req, env) => siteDashboard(req, env, req.params.siteId));

export default {
  async fetch(request, env, ctx): Promise<Response> {
    const isHead = request.method === "HEAD";
    const req = isHead ? new Request(request, { method: "GET" }) : request;
    let response: Response;
    try {
      const serviceToken = request.headers.get(SERVICE_TOKEN_HEADER);
      // The URL carries the Host the client asked for (workerd builds request.url from it).
      const host = new URL(request.url).host;
      // A custom hostname is routed by its Host alone: a client's x-service-token there changes nothing.
      if (!isServiceHost(env, host)) response = await customHostRequest(req, env, ctx, host);
      else if (serviceToken) response = await renderedPage(req, env, ctx, serviceToken);
      else response = (await router.fetch(req, env, ctx)) ?? errorResponse("not_found", "No such endpoint.");
    } catch (err) {
      response = toErrorResponse(err);
    }
    if (new URL(request.url).pathname.startsWith("/v1/") && !response.headers.has("access-control-allow-origin")) {
      response = withCors(response);
    }
    return isHead ? new Response(null, response) : response;
  },
} satisfies ExportedHandler<Env>;
