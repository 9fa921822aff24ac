/**
 * The Site object: one site, its collections, items and media in SQLite, addressed by
 * `idFromName(siteId)`. This class only wires the rooms of actors/site/ together: the state it
 * keeps in memory (site/live-site.ts, the context every room is handed), its routers
 * (site/http/site-routes.ts), its jobs (site/job-registry.ts, run by the one alarm) and the RPC
 * methods the front Worker and the workspace call, each delegating to its room.
 */
import { DurableObject } from "cloudflare:workers";
import { toErrorResponse, errorResponse } from "../src/http/errors";
import { sha256Hex } from "../src/ids";
import { newSiteSessionId } from "../src/identity/session-policy";
import { SessionStore } from "./shared/session-store";
import type { SessionInfo } from "../src/identity/session-policy";
import type { Plan } from "../src/contract/plans";
import { CACHE_VERSION_HEADER, CHANGES_HEADER } from "../src/contract/headers";
import { encodeChanges } from "../src/contract/cache-version";
import type { MakerSweep, SiteSwept } from "../src/access/maker";
import type { ImportCall } from "../src/contract/imports";
import { hasDatabase, LiveSite, type SiteMeta } from "./site/live-site";
import { armSiteJobs, siteJobs } from "./site/job-registry";
import { type JobHandler, runDueJobs } from "./shared/jobs";
import { SiteRoutes } from "./site/http/site-routes";
import { verifyAdminKey, verifySession } from "./site/http/caller";
import { importUpload, mediaUpload } from "./site/http/uploads";
import { insertSite, noteWidgetSeen, readSite, type SiteRow } from "./site/storage/site-row";
import { releaseUnprovenHostname, removeHostnames } from "./site/hostnames/service";
import { auditPage, type AuditFilter, type AuditRow } from "./shared/audit-log";
import type { MediaCall } from "./site/media/calls";
import { recordVariant, resolveFile, type ServedFile } from "./site/media/store";
import { scheduleDeliveries } from "./site/webhooks/deliver";

export type { SiteMeta };

export interface SiteStats {
  publicReads: number;
  /** Calls of `meta` and `metaForHost`: the front Worker's version checks. */
  metaReads: number;
  /** Public reads (content API, rendered pages, documents) answered "unchanged since your copy" (304, no body, nothing for the front Worker to store). */
  unchangedReads: number;
  /** Search queries that needed a model call (a repeated query is answered from the cache of query vectors). */
  queryEmbeddings: number;
  /** Entries of each in-memory structure. */
  memo: Record<string, number>;
}

export class Site extends DurableObject<Env> {
  #s: LiveSite;
  #routes: SiteRoutes;
  // Every kind of deferred work, by the `kind` its rows carry in the jobs table.
  #jobs: Readonly<Record<string, JobHandler>>;
  #metaReads = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#s = new LiveSite(ctx.storage, env);
    this.#routes = new SiteRoutes(this.#s);
    this.#jobs = siteJobs(this.#s);
    // An object where no site was ever created writes nothing: a request naming an id nobody
    // was issued reads two things and answers "no such site" (init() builds the database).
    if (!hasDatabase(ctx.storage)) return;
    void this.#open();
  }

  // Migrations finish before any request sees the database; a failure here
  // is re-thrown by every later call instead of running on a half-built schema.
  #open(): Promise<void> {
    return this.ctx.blockConcurrencyWhile(async () => {
      await this.#s.open();
      armSiteJobs(this.#s);
    });
  }

  /** `adminKeyBy`: who is shown the first admin key (the creating account, or `operator`). */
  async init(
    site: Omit<SiteRow, "cacheVersion" | "createdAt" | "updatedAt" | "adminKeyHash" | "imageResizingHosts"> & { adminKey: string },
  ): Promise<void> {
    if (this.#s.site()) throw new Error("site already initialised");
    if (!hasDatabase(this.ctx.storage)) await this.#open();
    insertSite(this.#s.sql, { ...site, adminKeyHash: await sha256Hex(site.adminKey) });
    this.#s.siteIs(readSite(this.#s.sql));
    this.#s.searchService.followPlan();
  }

  /** Another site took over this site's unproven claim on `hostname` (Hostname.claim): let it go. */
  async releaseUnprovenHostname(hostname: string): Promise<void> {
    if (this.#s.site()) await releaseUnprovenHostname(this.#s, hostname);
  }

  /**
   * Its workspace was deleted: the custom hostnames are let go (their claims and the provider's
   * records) and its vectors removed from the search index, then everything the site stored is
   * erased and the site answers 404 everywhere; a failure part-way throws and the workspace's
   * retry finishes the job.
   */
  async destroy(): Promise<void> {
    if (this.#s.site()) {
      await removeHostnames(this.#s);
      await this.#s.searchService.removeAllVectors();
    }
    this.#s.siteIs(null);
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  /** Whether a site was created in this object (asked before a sign-in attempt is counted). */
  exists(): boolean {
    return this.#s.site() !== null;
  }

  /** Whether a share link's token is live and asks for a password (asked before a password attempt is counted). */
  async previewLinkLocked(token: string): Promise<boolean> {
    if (!this.#s.site()) return false;
    return (await import("./site/preview/open")).linkLocked(this.#s, token);
  }

  /** What the front Worker needs before it may answer from the edge cache. Null for a wrong token. */
  meta(token: string): SiteMeta | null {
    this.#metaReads++;
    return this.#s.metaOf(token);
  }

  /**
   * The site's public token with what `meta` says for it, or null when no site was created here:
   * the front Worker compares tokens itself, so a loop of wrong tokens for a real site costs this
   * object one call per isolate per memo lifetime, not one per request (src/edge/site-meta.ts).
   */
  publicFacts(): { token: string; meta: SiteMeta } | null {
    this.#metaReads++;
    const site = this.#s.site();
    return site ? { token: site.token, meta: this.#s.metaOfSite(site) } : null;
  }

  /** The same facts as `meta`, for a request the front Worker routed by custom hostname (no token). */
  metaForHost(): SiteMeta | null {
    this.#metaReads++;
    const site = this.#s.site();
    return site ? this.#s.metaOfSite(site) : null;
  }

  verifyAdminKey(key: string): Promise<boolean> {
    return verifyAdminKey(this.#s, key);
  }

  /** Exchanges the admin key for a dashboard session; null for a wrong key. */
  async signIn(key: string): Promise<{ id: string; session: SessionInfo } | null> {
    if (!(await this.verifyAdminKey(key))) return null;
    const id = newSiteSessionId(this.#s.site()!.id);
    return { id, session: await new SessionStore(this.#s.sql).create(id) };
  }

  verifySession(id: string): Promise<SessionInfo | null> {
    return verifySession(this.#s, id);
  }

  async endSession(id: string): Promise<void> {
    if (this.#s.site()) await new SessionStore(this.#s.sql).end(id);
  }

  /** A workspace plan change; retires cached responses so plan-gated answers change at once. */
  setPlan(plan: Plan): number {
    return this.#s.setPlan(plan);
  }

  /** Counters and the sizes of what this object keeps in memory: the no-growth tests and the bench read them. */
  stats(): SiteStats {
    const search = this.#s.searchService;
    const memo = this.#s.memoSizes();
    return {
      publicReads: this.#routes.publicReads,
      metaReads: this.#metaReads,
      unchangedReads: this.#routes.public.unchanged() + this.#routes.unchangedPages,
      queryEmbeddings: search.queries.calls,
      memo: {
        counts: memo.counts,
        orders: memo.orders,
        answers: this.#routes.public.memoSize(),
        itemJson: memo.itemJson,
        queryVectors: search.queries.size,
      },
    };
  }

  /** The one alarm: runs every due job and re-arms for the next (see shared/jobs.ts). */
  override async alarm(): Promise<void> {
    if (!this.#s.site()) return;
    await runDueJobs(this.ctx.storage, this.#jobs);
    // A job's writes (a scheduled publish, a capture refresh) may have queued webhook deliveries.
    scheduleDeliveries(this.ctx.storage);
  }

  override async fetch(request: Request): Promise<Response> {
    let response: Response;
    try {
      response = (await this.#routes.route(request)) ?? errorResponse("not_found", "No such endpoint.");
    } catch (err) {
      response = toErrorResponse(err, { siteId: this.#s.site()?.id, requestId: request.headers.get("cf-ray") ?? undefined });
    }
    const site = this.#s.site();
    if (site) {
      response.headers.set(CACHE_VERSION_HEADER, String(site.cacheVersion));
      // A write's answer says what the recent versions changed, so the writer's isolate carries the rest across.
      const changes = this.#s.changes();
      if (request.method !== "GET" && changes.length) response.headers.set(CHANGES_HEADER, encodeChanges(changes));
    }
    return response;
  }

  /** The embed script ran on `page` (src/content/seen-route.ts): the checklist's widget step. */
  noteWidgetSeen(page: string): void {
    if (this.#s.site()) noteWidgetSeen(this.#s.sql, page);
  }

  /** One step of an upload the front Worker streams into R2 (src/media/upload-route.ts); refusals answered as data. */
  mediaUpload(headers: [string, string][], call: MediaCall, replaces?: string): ReturnType<typeof mediaUpload> {
    return mediaUpload(this.#s, headers, call, replaces);
  }

  /** One step of an import upload the front Worker parses (src/imports/routes.ts). */
  importUpload(headers: [string, string][], path: string, call: ImportCall): Promise<unknown> {
    return importUpload(this.#s, headers, path, call);
  }

  /** The stored file a public media URL names (the URL is public; its hash part must match). */
  mediaFile(mediaId: string, hash: string): ServedFile | null {
    return this.#s.site() ? resolveFile(this.#s.sql, mediaId, hash) : null;
  }

  /** A variant the front Worker made and put in R2: listed, so delete and the sweep remove it. */
  mediaVariant(objectKey: string, width: number, format: string, key: string, bytes: number): void {
    if (this.#s.site()) recordVariant(this.#s.sql, objectKey, width, format, key, bytes);
  }

  /**
   * A member's standing in the workspace fell (RPC from the workspace, before it answers the change):
   * what they made here that they may no longer make ends (site/http/maker-sweep.ts).
   */
  async sweepMaker(sweep: MakerSweep): Promise<SiteSwept> {
    if (!this.#s.site()) return { adminKey: false, webhooks: [], previewLinks: [] };
    return (await import("./site/http/maker-sweep")).sweepMaker(this.#s, sweep);
  }

  /** One page of this site's audit rows for the workspace's merged log (RPC from the workspace). */
  auditPage(filter: AuditFilter): AuditRow[] {
    return this.#s.site() ? auditPage(this.#s.sql, filter) : [];
  }
}
