/**
 * Every request the site object serves, as a list of routers asked in order (actors/shared/router.ts):
 * rendered pages (by service token or custom hostname), the public content API, share links, then,
 * for a site that exists, the builder's publish webhook and the dashboard API behind its caller check.
 */
import { errorResponse, previewNotFound } from "../../../src/http/errors";
import { CLIENT_HEADER, HOST_HEADER, RENDER_HEADER } from "../../../src/contract/headers";
import { NO_STORE } from "../../../src/contract/cache-control";
import { VALIDATION_PATH } from "../../../src/contract/hostnames";
import { firstResponse, type Router } from "../../shared/router";
import type { LiveSite } from "../live-site";
import { validateHostname } from "../hostnames/service";
import { publicRoutes } from "./public-routes";
import { renderRoute, webhook } from "./ssr-routes";
import { unchangedPage } from "./revalidate";
import { dashboardChain } from "./dashboard-chain";

/** Whom a public read counts for: the key the front Worker set (src/limits/client.ts). */
function readClient(request: Request): string {
  return request.headers.get(CLIENT_HEADER) ?? "unknown";
}

/** The site object's routers, with the counts of public reads that `stats` reports. */
export class SiteRoutes {
  /** Public reads (content API, rendered pages and documents) this object has answered since it started. */
  publicReads = 0;
  /** Rendered pages and documents confirmed unchanged since the front Worker's copy (revalidate.ts). */
  unchangedPages = 0;
  readonly public: ReturnType<typeof publicRoutes>;
  readonly #routers: readonly Router<[URL]>[];

  constructor(s: LiveSite) {
    this.public = publicRoutes(s);
    const counted = (request: Request, response: Response) => unchangedPage(request, response, () => this.unchangedPages++);
    const rendered: Router<[URL]> = (request) => {
      if (!request.headers.has(RENDER_HEADER)) return null;
      this.publicReads++;
      if (!s.metaOf(request.headers.get(RENDER_HEADER) ?? "")) return errorResponse("not_found", "Unknown service token.");
      s.limits.take("reads", readClient(request), s.site()!.plan);
      return counted(request, renderRoute(s, request, null));
    };
    const customHost: Router<[URL]> = async (request, url) => {
      const host = request.headers.get(HOST_HEADER);
      const site = s.site();
      if (host === null || !site) return null;
      const path = url.pathname;
      const token = path.startsWith(VALIDATION_PATH) ? path.slice(VALIDATION_PATH.length) : null;
      if (token !== null) {
        const ok = await validateHostname(s, host, token);
        return ok
          ? new Response(`${host} reaches this service.\n`, { headers: { "content-type": "text/plain", "cache-control": NO_STORE } })
          : errorResponse("not_found", "Unknown validation token for this hostname.");
      }
      this.publicReads++;
      s.limits.take("reads", readClient(request), site.plan);
      return counted(request, renderRoute(s, request, host));
    };
    const contentApi: Router<[URL]> = async (request, url) => {
      const path = url.pathname;
      if (!path.startsWith("/v1/")) return null;
      this.publicReads++;
      const token = decodeURIComponent(path.split("/")[2] ?? "");
      if (!s.metaOf(token)) return errorResponse("not_found", "Unknown site token.");
      s.limits.take("reads", readClient(request), s.site()!.plan);
      // Under /v1/ nothing else is asked: a path that is none of the content API's is no endpoint.
      return (await this.public.fetch(request, url)) ?? errorResponse("not_found", "No such endpoint.");
    };
    // A share link (routed here from the service's own hosts only): the same 404 page for a site
    // that does not exist as for a wrong token, and nothing is written for either.
    const shareLink: Router<[URL]> = async (request, url) => {
      if (!url.pathname.startsWith("/p/")) return null;
      if (!s.site()) return previewNotFound();
      return (await import("../preview/open")).openPreview(s, request);
    };
    // Everything below is of a site that exists.
    const noSite: Router<[URL]> = () => (s.site() ? null : errorResponse("not_found", "No such site."));
    const publishHook: Router<[URL]> = (request, url) => {
      const hook = /^\/hooks\/ssr\/[^/]+(?:\/([^/]+))?$/.exec(url.pathname);
      return hook && request.method === "POST" ? webhook(s, request, hook[1] ?? null) : null;
    };
    this.#routers = [rendered, customHost, contentApi, shareLink, noSite, publishHook, dashboardChain(s)];
  }

  /** The answer to `request`, or null when no router has its route. */
  route(request: Request): Promise<Response | null> {
    return firstResponse(this.#routers, request, new URL(request.url));
  }
}
