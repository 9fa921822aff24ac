import { DurableObject } from "cloudflare:workers";
import { toErrorResponse, errorResponse, previewNotFound } from "../src/http/errors";
import { safeEqual, sha256Hex } from "../src/ids";
import { newSiteSessionId } from "../src/sessions/policy";
import { type SessionInfo, SessionStore } from "../src/sessions/store";
import type { Plan } from "../src/contract/plans";
import { type Collection } from "./site/storage/rows";
import { readCollections } from "./site/content/collections";
import { foldStoredSearchTextOnce } from "./site/content/search-text";
import { cleanStoredRichTextOnce } from "./site/content/rich-text-cleanup";
import type { SiteContext } from "./site/context";
import { type JobHandler, pendingJob, runDueJobs, scheduleJob } from "./site/jobs";
import { type DocumentStats } from "./site/seo/document-stats";
import { regenerateDocuments, SEO_DOCUMENTS_JOB } from "./site/seo/documents";
import { runSiteMigrations } from "./site/storage/migrations";
import { refreshPublicData } from "./site/content/public-items";
import { PUBLIC_REBUILD_JOB, PublicRebuild } from "./site/reads/public-rebuild";
import { publicRoutes } from "./site/http/public-routes";
import { SiteLimits } from "./site/limits/site-limits";
import { RATELIMIT_POLICY_HEADER } from "../src/contract/limits";
import { credentialKey } from "../src/limits/credential";
import { ItemJsonMemo } from "./site/reads/item-json-memo";
import { INDEX_JOB, SiteSearch } from "./site/search/site-search";
import type { dashboardRoutes } from "./site/http/dashboard-routes";
import type { historyRoutes } from "./site/history/routes";
import { REVISIONS_PRUNE_JOB, retentionJob } from "./site/history/retention";
import { armSchedule, SCHEDULE_JOB, scheduleJobHandler } from "./site/history/schedule";
import { bumpCacheVersion, insertSite, readSite, type SiteRow, updateSite } from "./site/storage/site-row";
import { refresh, nextNightly } from "./site/ssr/capture";
import { readCapture, type StoredCapture } from "./site/ssr/capture-store";
import { renderRoute, SSR_JOBS, ssrRoutes, webhook } from "./site/http/ssr-routes";
import {
  checkDelayMs,
  checkHostname,
  HOSTNAME_JOB,
  releaseUnprovenHostname,
  removeHostnames,
  validateHostname,
} from "./site/hostnames/service";
import { VALIDATION_PATH } from "../src/contract/hostnames";
import {
  CACHE_VERSION_HEADER,
  RENDER_HEADER,
  HOST_HEADER,
  SESSION_HEADER,
  OPERATOR_HEADER,
  REVALIDATE_HEADER,
  CLIENT_HEADER,
  CHANGES_HEADER,
  DEPENDS_HEADER,
} from "../src/contract/headers";
import { bodyEtag } from "../src/http/etag";
import type { Principal, PrincipalHeader } from "../src/contract/principal";
import type { MakerSweep, SiteSwept } from "../src/access/maker";
import { clientOf, readPrincipalHeader } from "../src/access/principal-header";
import { siteAccess } from "./site/access/site-access";
import { AUDIT_PRUNE_JOB, defaultTarget, recordAudit } from "./site/access/audit";
import { auditPage, type AuditFilter, type AuditRow, pruneAudit } from "./shared/audit-log";
import { NO_STORE } from "../src/contract/cache-control";
import { BoundedMap, ENTRY_OVERHEAD, stringBytes } from "../src/shared/bounded-map";
import { countWhere, ORDER_MEMO_ROWS, orderedSeqs } from "./site/storage/items-table";
import { benchRevisionsOff } from "./site/storage/revisions-table";
import { type MediaCall, mediaCall } from "./site/media/calls";
import { refusal } from "../src/contract/refusal";
import { MEDIA_SWEEP_JOB, mediaSweepJob, SWEEP_EVERY_MS } from "./site/media/sweep";
import { recordVariant, resolveFile, type ServedFile } from "./site/media/store";
import { ApiError } from "../src/contract/errors";
import {
  changeOf,
  CHANGES_KEPT,
  encodeChanges,
  SEARCH_GENERATIONS,
  searchVersionOf,
  type VersionChange,
  type VersionChanges,
} from "../src/contract/cache-version";

/** Where the search generation is kept (the object's key-value storage, beside the migrations' own key). */
const SEARCH_GENERATION_KEY = "searchGeneration";
import { deliveryJob, pruneJob, scheduleDeliveries, WEBHOOKS_JOB, WEBHOOKS_PRUNE_JOB } from "./site/webhooks/deliver";
import type { webhookRoutes } from "./site/webhooks/routes";
import type { transferRoutes } from "./site/transfer/routes";
import type { importRoutes } from "./site/imports/routes";
import type { importJob } from "./site/imports/job";
import { IMPORT_JOB, importFailed, IMPORTS_PRUNE_JOB, pruneImports } from "./site/imports/store";
import type { ImportCall } from "../src/contract/imports";
import type { previewLinkRoutes } from "./site/preview/routes";
import { PREVIEW_LINKS_PRUNE_JOB, previewLinksPruneJob } from "./site/preview/prune";

export interface SiteMeta {
  siteId: string;
  plan: Plan;
  version: number;
  /** The version of `/search` and `/related` answers (src/contract/cache-version.ts). */
  searchVersion: number;
  /** What the recent versions changed (src/contract/cache-version.ts): lets the front Worker carry single-item answers across. */
  changes: VersionChanges;
}

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

/** The marker durable-utils keeps of the last migration run (a key of the object's KV storage). */
const MIGRATION_MARKER = "__sql_migrations_lastID";

/**
 * Whether a site database was ever built in this object: the migration marker, or (a database
 * from before the marker) its site table. Both are reads; nothing is written to find out.
 */
function hasDatabase(storage: DurableObjectStorage): boolean {
  if (storage.kv.get(MIGRATION_MARKER) !== undefined) return true;
  return storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'site'").toArray().length > 0;
}

/**
 * One site: its collections, items and media in SQLite. Addressed by
 * `idFromName(siteId)`; the front Worker has authenticated every request.
 */
export class Site extends DurableObject<Env> {
  #sql: SqlStorage;
  #site: SiteRow | null = null;
  #collections: Collection[] | null = null;
  #capture: StoredCapture | null | undefined;
  // The last sitemap/feed rebuild since this object started, for the dashboard.
  #documents: DocumentStats | null = null;
  // Totals for list queries; every page of one query shares its count. Cleared on any content change.
  #counts = new BoundedMap<string, number>(1000, 512 * 1024);
  // The order of a list query's rows (their seqs), for queries of up to ORDER_MEMO_ROWS rows: a page
  // of it is a slice, not an OFFSET scan. Cleared with the totals, on any content change.
  #orders = new BoundedMap<string, readonly number[]>(256, 1024 * 1024);
  // Published items' content API JSON across versions; items a change names are dropped (#noteChange).
  #itemJson = new ItemJsonMemo();
  // Public reads (content API, rendered pages and documents) this object has answered since it started.
  #publicReads = 0;
  #metaReads = 0;
  // Rendered pages and documents confirmed unchanged since the front Worker's copy (#unchangedPage).
  #unchangedPages = 0;
  // Index changes since the cache version was last bumped: the generation of `/search` and
  // `/related` answers (src/contract/cache-version.ts), kept in the object's key-value storage.
  #searchGeneration = 0;
  // What the last CHANGES_KEPT cache versions changed, in memory only: after a restart the versions
  // before it are unknown, which counts as "anything changed" (src/contract/cache-version.ts).
  #changes: VersionChange[] = [];
  // The dashboard's routes validate with zod: loaded on the first dashboard call, never by a public read.
  #dashboard: ReturnType<typeof dashboardRoutes> | null = null;
  #history: ReturnType<typeof historyRoutes> | null = null;
  #webhooks: ReturnType<typeof webhookRoutes> | null = null;
  #transfer: ReturnType<typeof transferRoutes> | null = null;
  #imports: ReturnType<typeof importRoutes> | null = null;
  // The import job's code (csv, mapping and schema checks) loads on its first run, never for a read.
  #importJob: ReturnType<typeof importJob> | null = null;
  #previewLinks: ReturnType<typeof previewLinkRoutes> | null = null;
  #public: ReturnType<typeof publicRoutes>;
  #ssr: ReturnType<typeof ssrRoutes>;
  #context: SiteContext;
  // Every kind of deferred work, by the `kind` its rows carry in the jobs table.
  #jobs: Readonly<Record<string, JobHandler>>;
  #search: SiteSearch;
  // The kept public JSON of items with media, rebuilt a chunk per alarm run after the image resizing hosts change.
  #publicRebuild: PublicRebuild;
  // What this site's visitors and credentials may still ask of it (site/limits/).
  #limits: SiteLimits;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    this.#limits = new SiteLimits(env, () => this.#site?.id);
    benchRevisionsOff(env);
    const context = (this.#context = this.#makeContext());
    this.#public = publicRoutes(context);
    this.#ssr = ssrRoutes(context);
    this.#search = new SiteSearch(context, env);
    this.#publicRebuild = new PublicRebuild(ctx.storage);
    this.#jobs = {
      [INDEX_JOB]: this.#search.job,
      [SSR_JOBS.nightly]: {
        run: async () => {
          if (!context.capture()) return;
          // A failed nightly refresh is recorded on the capture; the next night tries again.
          await refresh(context, "nightly").catch(() => undefined);
          return { next: nextNightly(this.#site!.id) };
        },
      },
      [SSR_JOBS.webhook]: {
        run: async () => {
          if (context.capture()) await refresh(context, "webhook");
        },
        maxAttempts: 5,
        backoffMs: (attempt) => 15_000 * 4 ** (attempt - 1),
      },
      [HOSTNAME_JOB]: {
        run: (hostname) => checkHostname(context, hostname),
        // A provider outage is retried; the job keeps its own pace when the answer is "not yet".
        backoffMs: (attempt) => checkDelayMs(attempt),
        maxAttempts: 20,
      },
      [AUDIT_PRUNE_JOB]: {
        // Audit rows are kept AUDIT_RETENTION_MS (more than the 90 days promised), then go.
        run: () => {
          pruneAudit(this.#sql, Date.now());
          return { next: Date.now() + 86_400_000 };
        },
      },
      // Daily: R2 objects no row names, uploads a crash left open (actors/site/media/sweep.ts).
      [MEDIA_SWEEP_JOB]: mediaSweepJob(context),
      // Item history by the plan's retention, daily (site/history/retention.ts).
      [REVISIONS_PRUNE_JOB]: retentionJob(this.#sql, () => this.#site?.plan ?? null),
      // Scheduled publish and unpublish, with every effect of a manual one (site/history/schedule.ts).
      [SCHEDULE_JOB]: scheduleJobHandler(context),
      // Outbound webhooks: due deliveries of the events the triggers wrote (site/webhooks/).
      [WEBHOOKS_JOB]: deliveryJob(context),
      // Daily: the delivery log's rows older than 30 days (site/webhooks/deliveries.ts).
      [WEBHOOKS_PRUNE_JOB]: pruneJob(this.#sql),
      // Imports: the dry run, the write and the link pass of one import, a slice of rows at a time (site/imports/job.ts).
      [IMPORT_JOB]: {
        run: async (id) => (this.#importJob ??= (await import("./site/imports/job")).importJob(context)).run(id),
        maxAttempts: 5,
        backoffMs: (attempt) => 5_000 * attempt,
        failed: (id, error) => importFailed(this.#sql, id, error),
      },
      // Daily: staged rows of imports that ended a week ago (site/imports/store.ts).
      [IMPORTS_PRUNE_JOB]: {
        run: () => {
          pruneImports(this.#sql, Date.now());
          return { next: Date.now() + 86_400_000 };
        },
      },
      // Daily: share links that ended more than 30 days ago, of every item (site/preview/prune.ts).
      [PREVIEW_LINKS_PRUNE_JOB]: previewLinksPruneJob(this.#sql),
      [PUBLIC_REBUILD_JOB]: this.#publicRebuild.job(context.collections),
      [SEO_DOCUMENTS_JOB]: {
        // No cache version bump: while this job was queued the documents were served with
        // no-store (http/ssr-routes.ts), so no cache holds a stale copy, and pages are already current.
        run: () => context.documentsBuilt(regenerateDocuments(context)),
      },
    };
    // An object where no site was ever created writes nothing: a request naming an id nobody
    // was issued reads two things and answers "no such site" (init() builds the database).
    if (!hasDatabase(ctx.storage)) return;
    void this.#open();
  }

  // Migrations finish before any request sees the database; a failure here
  // is re-thrown by every later call instead of running on a half-built schema.
  #open(): Promise<void> {
    const ctx = this.ctx;
    return ctx.blockConcurrencyWhile(async () => {
      await runSiteMigrations(ctx.storage);
      this.#site = readSite(this.#sql);
      this.#searchGeneration = (await ctx.storage.get<number>(SEARCH_GENERATION_KEY)) ?? 0;
      const cleaned = cleanStoredRichTextOnce(ctx.storage, readCollections(this.#sql));
      const folded = foldStoredSearchTextOnce(ctx.storage);
      if ((cleaned > 0 || folded > 0) && this.#site) {
        bumpCacheVersion(this.#sql);
        this.#site = readSite(this.#sql);
      }
      // Public JSON for items written before it was kept on write; all of it if values were just cleaned.
      for (const c of readCollections(this.#sql)) refreshPublicData(this.#sql, c, cleaned === 0);
      // Published items from before search existed, work left by a restart, or a new model.
      this.#search.wake();
      // The recurring clean-ups, each armed once (a restart keeps the time a job already has).
      const recurring: [kind: string, everyMs: number][] = [
        [AUDIT_PRUNE_JOB, 86_400_000],
        [MEDIA_SWEEP_JOB, SWEEP_EVERY_MS],
        [REVISIONS_PRUNE_JOB, 86_400_000],
        [WEBHOOKS_PRUNE_JOB, 86_400_000],
        [IMPORTS_PRUNE_JOB, 86_400_000],
        [PREVIEW_LINKS_PRUNE_JOB, 86_400_000],
      ];
      for (const [kind, everyMs] of recurring)
        if (!pendingJob(this.#sql, kind, "all")) scheduleJob(ctx.storage, kind, "all", Date.now() + everyMs);
      // The schedule's job follows the items table (the truth), whatever a restart left.
      armSchedule(ctx.storage);
    });
  }

  /** `adminKeyBy`: who is shown the first admin key (the creating account, or `operator`). */
  async init(
    site: Omit<SiteRow, "cacheVersion" | "createdAt" | "updatedAt" | "adminKeyHash" | "imageResizingHosts"> & { adminKey: string },
  ): Promise<void> {
    if (this.#site) throw new Error("site already initialised");
    if (!hasDatabase(this.ctx.storage)) await this.#open();
    insertSite(this.#sql, { ...site, adminKeyHash: await sha256Hex(site.adminKey) });
    this.#site = readSite(this.#sql);
    this.#search.followPlan();
  }

  /** Another site took over this site's unproven claim on `hostname` (Hostname.claim): let it go. */
  async releaseUnprovenHostname(hostname: string): Promise<void> {
    if (this.#site) await releaseUnprovenHostname(this.#context, hostname);
  }

  /**
   * Its workspace was deleted: the custom hostnames are let go (their claims and the provider's
   * records) and its vectors removed from the search index, then everything the site stored is
   * erased and the site answers 404 everywhere; a failure part-way throws and the workspace's
   * retry finishes the job.
   */
  async destroy(): Promise<void> {
    if (this.#site) {
      await removeHostnames(this.#context);
      await this.#search.removeAllVectors();
    }
    this.#site = null;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  /** Whether a site was created in this object (asked before a sign-in attempt is counted). */
  exists(): boolean {
    return this.#site !== null;
  }

  /** Whether a share link's token is live and asks for a password (asked before a password attempt is counted). */
  async previewLinkLocked(token: string): Promise<boolean> {
    if (!this.#site) return false;
    return (await import("./site/preview/open")).linkLocked(this.#context, token);
  }

  /** What the front Worker needs before it may answer from the edge cache. Null for a wrong token. */
  meta(token: string): SiteMeta | null {
    this.#metaReads++;
    return this.#metaOf(token);
  }

  /**
   * The site's public token with what `meta` says for it, or null when no site was created here:
   * the front Worker compares tokens itself, so a loop of wrong tokens for a real site costs this
   * object one call per isolate per memo lifetime, not one per request (src/edge/site-meta.ts).
   */
  publicFacts(): { token: string; meta: SiteMeta } | null {
    this.#metaReads++;
    const site = this.#site;
    return site ? { token: site.token, meta: this.#metaOfSite(site) } : null;
  }

  #metaOf(token: string): SiteMeta | null {
    const site = this.#site;
    if (!site || !safeEqual(token, site.token)) return null;
    return this.#metaOfSite(site);
  }

  #setSearchGeneration(n: number): void {
    this.#searchGeneration = n;
    // Written with this request's other writes: the output gate holds the answer until it is stored.
    void this.ctx.storage.put(SEARCH_GENERATION_KEY, n);
  }

  #metaOfSite(site: SiteRow): SiteMeta {
    return {
      siteId: site.id,
      plan: site.plan,
      version: site.cacheVersion,
      searchVersion: searchVersionOf(site.cacheVersion, this.#searchGeneration),
      changes: this.#changes,
    };
  }

  /** Records what `version` changed: the ids of the items it touched (and the keys an edit changed), or null for anything else. */
  #noteChange(version: number, items: readonly string[] | null, fields?: readonly string[]): void {
    // A version is recorded once: should a bump ever be rolled back and its number reused, the later word counts.
    this.#changes = this.#changes.filter((c) => c.version < version);
    this.#changes.push(changeOf(version, items, fields));
    // The same record decides which items' kept JSON stays valid: the named items, or all of it.
    if (items) this.#itemJson.forget(items);
    else this.#itemJson.clear();
    if (this.#changes.length > CHANGES_KEPT) this.#changes.shift();
  }

  /** The same facts as `meta`, for a request the front Worker routed by custom hostname (no token). */
  metaForHost(): SiteMeta | null {
    this.#metaReads++;
    const site = this.#site;
    return site ? this.#metaOfSite(site) : null;
  }

  async verifyAdminKey(key: string): Promise<boolean> {
    const site = this.#site;
    return site !== null && safeEqual(await sha256Hex(key), site.adminKeyHash);
  }

  /** Exchanges the admin key for a dashboard session; null for a wrong key. */
  async signIn(key: string): Promise<{ id: string; session: SessionInfo } | null> {
    if (!(await this.verifyAdminKey(key))) return null;
    const id = newSiteSessionId(this.#site!.id);
    return { id, session: await new SessionStore(this.#sql).create(id) };
  }

  async verifySession(id: string): Promise<SessionInfo | null> {
    return this.#site ? new SessionStore(this.#sql).verify(id) : null;
  }

  async endSession(id: string): Promise<void> {
    if (this.#site) await new SessionStore(this.#sql).end(id);
  }

  /** A workspace plan change; retires cached responses so plan-gated answers change at once. */
  setPlan(plan: Plan): number {
    updateSite(this.#sql, { plan });
    this.#counts.clear();
    this.#orders.clear();
    const version = bumpCacheVersion(this.#sql);
    this.#noteChange(version, null);
    this.#site = readSite(this.#sql);
    this.#search.followPlan();
    this.#search.afterWrite();
    return version;
  }

  /** Counters and the sizes of what this object keeps in memory: the no-growth tests and the bench read them. */
  stats(): SiteStats {
    return {
      publicReads: this.#publicReads,
      metaReads: this.#metaReads,
      unchangedReads: this.#public.unchanged() + this.#unchangedPages,
      queryEmbeddings: this.#search.queries.calls,
      memo: {
        counts: this.#counts.size,
        orders: this.#orders.size,
        answers: this.#public.memoSize(),
        itemJson: this.#itemJson.size,
        queryVectors: this.#search.queries.size,
      },
    };
  }

  /** The one alarm: runs every due job and re-arms for the next (see site/jobs.ts). */
  override async alarm(): Promise<void> {
    if (!this.#site) return;
    await runDueJobs(this.ctx.storage, this.#jobs);
    // A job's writes (a scheduled publish, a capture refresh) may have queued webhook deliveries.
    scheduleDeliveries(this.ctx.storage);
  }

  override async fetch(request: Request): Promise<Response> {
    let response: Response;
    try {
      response = (await this.#route(request)) ?? errorResponse("not_found", "No such endpoint.");
    } catch (err) {
      response = toErrorResponse(err, { siteId: this.#site?.id, requestId: request.headers.get("cf-ray") ?? undefined });
    }
    if (this.#site) {
      response.headers.set(CACHE_VERSION_HEADER, String(this.#site.cacheVersion));
      // A write's answer says what the recent versions changed, so the writer's isolate carries the rest across.
      if (request.method !== "GET" && this.#changes.length) response.headers.set(CHANGES_HEADER, encodeChanges(this.#changes));
    }
    return response;
  }

  async #route(request: Request): Promise<Response | undefined> {
    const url = new URL(request.url);
    const path = url.pathname;
    if (request.headers.has(RENDER_HEADER)) {
      this.#publicReads++;
      if (!this.#metaOf(request.headers.get(RENDER_HEADER) ?? "")) return errorResponse("not_found", "Unknown service token.");
      this.#limits.take("reads", readClient(request), this.#site!.plan);
      return this.#unchangedPage(request, renderRoute(this.#context, request, null));
    }
    const host = request.headers.get(HOST_HEADER);
    if (host !== null && this.#site) {
      const token = path.startsWith(VALIDATION_PATH) ? path.slice(VALIDATION_PATH.length) : null;
      if (token !== null) {
        const ok = await validateHostname(this.#context, host, token);
        return ok
          ? new Response(`${host} reaches this service.\n`, { headers: { "content-type": "text/plain", "cache-control": NO_STORE } })
          : errorResponse("not_found", "Unknown validation token for this hostname.");
      }
      this.#publicReads++;
      this.#limits.take("reads", readClient(request), this.#site.plan);
      return this.#unchangedPage(request, renderRoute(this.#context, request, host));
    }
    if (path.startsWith("/v1/")) {
      this.#publicReads++;
      const token = decodeURIComponent(path.split("/")[2] ?? "");
      if (!this.#metaOf(token)) return errorResponse("not_found", "Unknown site token.");
      this.#limits.take("reads", readClient(request), this.#site!.plan);
      return this.#public.fetch(request, url);
    }
    // A share link (routed here from the service's own hosts only): the same 404 page for a site
    // that does not exist as for a wrong token, and nothing is written for either.
    if (path.startsWith("/p/")) {
      if (!this.#site) return previewNotFound();
      return (await import("./site/preview/open")).openPreview(this.#context, request);
    }
    if (!this.#site) return errorResponse("not_found", "No such site.");
    const hook = /^\/hooks\/ssr\/[^/]+(?:\/([^/]+))?$/.exec(path);
    if (hook && request.method === "POST") return webhook(this.#context, request, hook[1] ?? null);
    const caller = await this.#caller(request);
    if (!caller) return errorResponse("unauthorized", "Missing or wrong site admin key, or the dashboard session has ended.");
    const access = siteAccess(this.#site, request, caller.principal, caller.client, path);
    if (access.entry.method !== "get") this.#limits.write(credentialKey(caller.principal), this.#site.plan);
    // (The router itself is never a promise's value: itty-router's Proxy would pass for a thenable.)
    this.#dashboard ??= (await import("./site/http/dashboard-routes")).dashboardRoutes(this.#context);
    this.#history ??= (await import("./site/history/routes")).historyRoutes(this.#context);
    this.#webhooks ??= (await import("./site/webhooks/routes")).webhookRoutes(this.#context);
    this.#transfer ??= (await import("./site/transfer/routes")).transferRoutes(this.#context);
    this.#imports ??= (await import("./site/imports/routes")).importRoutes(this.#context);
    this.#previewLinks ??= (await import("./site/preview/routes")).previewLinkRoutes(this.#context);
    // Routers whose base (/sites/:siteId/ssr, /webhooks, /imports) or paths (the exports) cannot
    // match are not asked: each router parses the URL and tries its routes in turn.
    const section = path.split("/", 4)[3];
    const exporting = path.endsWith("/export.csv") || path.endsWith("/export.json");
    const response = ((section === "ssr" ? await this.#ssr.fetch(request, access) : undefined) ??
      (section === "webhooks" ? await this.#webhooks.fetch(request, access) : undefined) ??
      (exporting ? await this.#transfer.fetch(request, access) : undefined) ??
      (section === "imports" ? await this.#imports.fetch(request, access) : undefined) ??
      (await this.#dashboard.fetch(request, access)) ??
      (await this.#history.fetch(request, access)) ??
      (await this.#previewLinks.fetch(request, access))) as Response | undefined;
    // Any write may have written webhook events (triggers on items, collections, the capture).
    if (access.entry.method !== "get") {
      scheduleDeliveries(this.ctx.storage);
      response?.headers.set(RATELIMIT_POLICY_HEADER, this.#limits.writePolicies(this.#site.plan));
    }
    // A change whose handler awaited outside I/O-free code (a capture's fetch) records here, right
    // after its synchronous write; every other handler records inside its own transaction.
    if (response?.ok && access.entry.method !== "get" && !access.recorded) recordAudit(this.#sql, access, defaultTarget(access));
    return response;
  }

  /**
   * Who is calling. Accounts and API keys were verified by the front Worker, which says so in
   * the principal header; the operator's header, a legacy admin key and its sessions are checked
   * here as before (they are the Owner of this one site).
   */
  async #caller(request: Request): Promise<PrincipalHeader | null> {
    const header = readPrincipalHeader(request);
    if (header && (header.principal.kind === "account" || header.principal.kind === "apiKey")) return header;
    const client = header?.client ?? clientOf(request);
    let principal: Principal | null = null;
    if (request.headers.get(OPERATOR_HEADER) === "1") principal = { kind: "operator" };
    else {
      const session = request.headers.get(SESSION_HEADER);
      const key = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
      const ok = session !== null ? (await this.verifySession(session)) !== null : key !== undefined && (await this.verifyAdminKey(key));
      if (ok) principal = { kind: "siteKey", siteId: this.#site!.id };
    }
    return principal ? { principal, client } : null;
  }

  /**
   * A rendered page or document the front Worker asks for while it holds an older version's copy
   * (REVALIDATE_HEADER: the ETag of those bytes, src/http/etag.ts): rendered whole and hashed, and
   * when it is the same bytes, 304 with no body, so the front Worker keeps its copy for the new
   * version and writes nothing to the Cache API. Most pages do not change with one publish. An
   * answer that must not be kept (no-store: a document whose rebuild is queued) is never "unchanged".
   */
  async #unchangedPage(request: Request, response: Response): Promise<Response> {
    const validator = request.headers.get(REVALIDATE_HEADER);
    if (validator === null || response.status !== 200 || /\bno-store\b/i.test(response.headers.get("cache-control") ?? "")) return response;
    const body = await response.arrayBuffer();
    if ((await bodyEtag(body)) !== validator) return new Response(body, response);
    this.#unchangedPages++;
    const unchanged = new Response(null, { status: 304, headers: { etag: validator } });
    const dependsOn = response.headers.get(DEPENDS_HEADER);
    if (dependsOn !== null) unchanged.headers.set(DEPENDS_HEADER, dependsOn);
    return unchanged;
  }

  /**
   * One step of an upload the front Worker streams into R2 (src/routes/media-upload.ts), with the
   * caller's headers: checked as the dashboard request uploadMedia (or, with `replaces`,
   * replaceMedia) is, refusals answered as data.
   */
  async mediaUpload(
    headers: [string, string][],
    call: MediaCall,
    replaces?: string,
  ): Promise<Awaited<ReturnType<typeof mediaCall>> | ReturnType<typeof refusal>> {
    try {
      if (!this.#site) throw new ApiError("not_found", "No such site.");
      // Checked as the request it is part of: an upload (uploadMedia) or a replace (replaceMedia).
      const request = replaces
        ? new Request(`https://site.internal/sites/${this.#site.id}/media/${encodeURIComponent(replaces)}/file`, { method: "PUT", headers })
        : new Request(`https://site.internal/sites/${this.#site.id}/media/files`, { method: "POST", headers });
      if (call.op === "commit" && call.input.replaces !== replaces)
        throw new ApiError("bad_request", "A replace names its entry in every step.");
      const caller = await this.#caller(request);
      if (!caller) throw new ApiError("unauthorized", "Missing or wrong site admin key, or the dashboard session has ended.");
      // Awaited here, so a refusal of the workspace's storage is answered as data too.
      return await mediaCall(this.#context, siteAccess(this.#site, request, caller.principal, caller.client), call);
    } catch (err) {
      return refusal(err);
    }
  }

  /**
   * One step of an import upload the front Worker parses (src/routes/imports.ts), with the
   * caller's headers and the upload's path: checked as that dashboard request is, every step.
   */
  async importUpload(headers: [string, string][], path: string, call: ImportCall): Promise<unknown> {
    try {
      if (!this.#site) throw new ApiError("not_found", "No such site.");
      const request = new Request(`https://site.internal${path}`, { method: "POST", headers });
      const caller = await this.#caller(request);
      if (!caller) throw new ApiError("unauthorized", "Missing or wrong site admin key, or the dashboard session has ended.");
      const access = siteAccess(this.#site, request, caller.principal, caller.client);
      if (access.entry.id !== "createImport" && access.entry.id !== "createSiteImport")
        throw new ApiError("not_found", "No such endpoint.");
      const { importCall } = await import("./site/imports/calls");
      return importCall(this.#context, access, call);
    } catch (err) {
      return refusal(err);
    }
  }

  /** The stored file a public media URL names (the URL is public; its hash part must match). */
  mediaFile(mediaId: string, hash: string): ServedFile | null {
    return this.#site ? resolveFile(this.#sql, mediaId, hash) : null;
  }

  /** A variant the front Worker made and put in R2: listed, so delete and the sweep remove it. */
  mediaVariant(objectKey: string, width: number, format: string, key: string, bytes: number): void {
    if (this.#site) recordVariant(this.#sql, objectKey, width, format, key, bytes);
  }

  /**
   * A member's standing in the workspace fell (RPC from the workspace, before it answers the change):
   * what they made here that they may no longer make ends (site/http/maker-sweep.ts).
   */
  async sweepMaker(sweep: MakerSweep): Promise<SiteSwept> {
    if (!this.#site) return { adminKey: false, webhooks: [], previewLinks: [] };
    return (await import("./site/http/maker-sweep")).sweepMaker(this.#context, sweep);
  }

  /** One page of this site's audit rows for the workspace's merged log (RPC from the workspace). */
  auditPage(filter: AuditFilter): AuditRow[] {
    return this.#site ? auditPage(this.#sql, filter) : [];
  }

  #makeContext(): SiteContext {
    return {
      env: this.env,
      storage: this.ctx.storage,
      sql: this.#sql,
      site: () => this.#site,
      collections: () => (this.#collections ??= readCollections(this.#sql)),
      collectionsChanged: () => {
        this.#collections = null;
      },
      capture: () => (this.#capture === undefined ? (this.#capture = readCapture(this.#sql)) : this.#capture),
      documents: () => this.#documents,
      documentsBuilt: (stats) => {
        this.#documents = stats;
      },
      captureChanged: () => {
        this.#capture = undefined;
      },
      siteChanged: () => {
        this.#site = readSite(this.#sql);
      },
      orderOf: (where, args, orderBy, total) => {
        if (total > ORDER_MEMO_ROWS) return null;
        const key = `${where}\u0000${JSON.stringify(args)}\u0000${orderBy}`;
        let seqs = this.#orders.get(key);
        if (seqs === undefined) {
          seqs = orderedSeqs(this.#sql, where, orderBy, args);
          this.#orders.set(key, seqs, stringBytes(key) + 8 * seqs.length + ENTRY_OVERHEAD);
        }
        return seqs;
      },
      itemJson: () => this.#itemJson,
      countOf: (where, args) => {
        const key = `${where}\u0000${JSON.stringify(args)}`;
        let n = this.#counts.get(key);
        if (n === undefined) {
          n = countWhere(this.#sql, where, args);
          this.#counts.set(key, n, stringBytes(key) + ENTRY_OVERHEAD);
        }
        return n;
      },
      contentChanged: (items, fields) => {
        this.#counts.clear();
        this.#orders.clear();
        // The sitemap and feeds follow every visible change, off the request path (the alarm runs it at once).
        if (this.#context.capture()) scheduleJob(this.ctx.storage, SEO_DOCUMENTS_JOB, "all", Date.now());
        const v = this.#context.cacheChanged(items, fields);
        // Every change a reader could see may change what search should index.
        this.#search.afterWrite();
        return v;
      },
      cacheChanged: (items, fields) => {
        const v = bumpCacheVersion(this.#sql);
        this.#noteChange(v, items ?? null, fields);
        // Only the version changed: the row in memory follows without reading it again.
        if (this.#site) this.#site = { ...this.#site, cacheVersion: v };
        if (this.#searchGeneration !== 0) this.#setSearchGeneration(0);
        return v;
      },
      searchChanged: () => {
        if (this.#searchGeneration + 1 >= SEARCH_GENERATIONS) this.#context.cacheChanged();
        else this.#setSearchGeneration(this.#searchGeneration + 1);
      },
      search: () => this.#search,
      limits: this.#limits,
      publicStaleAfter: () => this.#publicRebuild.staleAfter,
      rebuildPublicData: () => this.#publicRebuild.start(),
    };
  }
}

/** Whom a public read counts for: the key the front Worker set (src/limits/client.ts). */
function readClient(request: Request): string {
  return request.headers.get(CLIENT_HEADER) ?? "unknown";
}
