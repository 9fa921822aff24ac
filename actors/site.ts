import { DurableObject } from "cloudflare:workers";
import { SQLSchemaMigrations } from "durable-utils/sql-migrations";
import { toErrorResponse, errorResponse } from "../src/http/errors";
import { safeEqual, sha256Hex } from "../src/ids";
import type { Plan } from "../src/plans";
import { type Collection, readCollections } from "./site/collections";
import type { SiteContext } from "./site/context";
import { type JobHandler, runDueJobs } from "./site/jobs";
import { SITE_MIGRATIONS } from "./site/migrations";
import { publicRoutes } from "./site/public-routes";
import { INDEX_JOB, SiteSearch } from "./site/search/site-search";
import { dashboardRoutes } from "./site/routes";
import { bumpCacheVersion, insertSite, readSite, type SiteRow, updateSite } from "./site/site-row";

export interface SiteMeta {
  siteId: string;
  plan: Plan;
  version: number;
}

export const CACHE_VERSION_HEADER = "x-oc-cache-version";

/**
 * One site: its collections, items and media in SQLite. Addressed by
 * `idFromName(siteId)`; the front Worker has authenticated every request.
 */
export class Site extends DurableObject<Env> {
  #sql: SqlStorage;
  #site: SiteRow | null = null;
  #collections: Collection[] | null = null;
  // Totals for list queries; every page of one query shares its count. Cleared on any content change.
  #counts = new Map<string, number>();
  #dashboard: ReturnType<typeof dashboardRoutes>;
  #public: ReturnType<typeof publicRoutes>;
  // Every kind of deferred work, by the `kind` its rows carry in the jobs table.
  #jobs: Readonly<Record<string, JobHandler>>;
  #search: SiteSearch;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    const context = this.#context();
    this.#dashboard = dashboardRoutes(context);
    this.#public = publicRoutes(context);
    this.#search = new SiteSearch(context, env);
    this.#jobs = { [INDEX_JOB]: this.#search.job };
    // Migrations finish before any request sees the database; a failure here
    // is re-thrown by every later call instead of running on a half-built schema.
    ctx.blockConcurrencyWhile(async () => {
      await new SQLSchemaMigrations({ doStorage: ctx.storage, migrations: SITE_MIGRATIONS }).runAll();
      this.#site = readSite(this.#sql);
      // Published items from before search existed, work left by a restart, or a new model.
      this.#search.wake();
    });
  }

  async init(site: Omit<SiteRow, "cacheVersion" | "createdAt" | "updatedAt" | "adminKeyHash"> & { adminKey: string }): Promise<void> {
    if (this.#site) throw new Error("site already initialised");
    insertSite(this.#sql, { ...site, adminKeyHash: await sha256Hex(site.adminKey) });
    this.#site = readSite(this.#sql);
  }

  /** What the front Worker needs before it may answer from the edge cache. Null for a wrong token. */
  meta(token: string): SiteMeta | null {
    const site = this.#site;
    if (!site || !safeEqual(token, site.token)) return null;
    return { siteId: site.id, plan: site.plan, version: site.cacheVersion };
  }

  async verifyAdminKey(key: string): Promise<boolean> {
    const site = this.#site;
    return site !== null && safeEqual(await sha256Hex(key), site.adminKeyHash);
  }

  /** A workspace plan change; retires cached responses so plan-gated answers change at once. */
  setPlan(plan: Plan): number {
    updateSite(this.#sql, { plan });
    this.#counts.clear();
    const version = bumpCacheVersion(this.#sql);
    this.#site = readSite(this.#sql);
    this.#search.afterWrite();
    return version;
  }

  /** The one alarm: runs every due job and re-arms for the next (see site/jobs.ts). */
  override async alarm(): Promise<void> {
    await runDueJobs(this.ctx.storage, this.#jobs);
  }

  override async fetch(request: Request): Promise<Response> {
    let response: Response;
    try {
      response = (await this.#route(request)) ?? errorResponse("not_found", "No such endpoint.");
    } catch (err) {
      response = toErrorResponse(err);
    }
    if (this.#site) response.headers.set(CACHE_VERSION_HEADER, String(this.#site.cacheVersion));
    return response;
  }

  async #route(request: Request): Promise<Response | undefined> {
    const path = new URL(request.url).pathname;
    if (path.startsWith("/v1/")) {
      const token = decodeURIComponent(path.split("/")[2] ?? "");
      if (!this.meta(token)) return errorResponse("not_found", "Unknown site token.");
      return this.#public.fetch(request);
    }
    if (!this.#site) return errorResponse("not_found", "No such site.");
    if (!(await this.#authorized(request))) return errorResponse("unauthorized", "Missing or wrong site admin key.");
    return this.#dashboard.fetch(request);
  }

  async #authorized(request: Request): Promise<boolean> {
    if (request.headers.get("x-oc-operator") === "1") return true;
    const key = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    return key !== undefined && (await this.verifyAdminKey(key));
  }

  #context(): SiteContext {
    return {
      storage: this.ctx.storage,
      sql: this.#sql,
      site: () => this.#site,
      collections: () => (this.#collections ??= readCollections(this.#sql)),
      collectionsChanged: () => {
        this.#collections = null;
      },
      siteChanged: () => {
        this.#site = readSite(this.#sql);
      },
      countOf: (where, args) => {
        const key = `${where}\u0000${JSON.stringify(args)}`;
        let n = this.#counts.get(key);
        if (n === undefined) {
          n = this.#sql.exec<{ n: number }>(`SELECT count(*) AS n FROM items WHERE ${where}`, ...args).one().n;
          if (this.#counts.size > 1000) this.#counts.clear();
          this.#counts.set(key, n);
        }
        return n;
      },
      contentChanged: () => {
        this.#counts.clear();
        const v = bumpCacheVersion(this.#sql);
        this.#site = readSite(this.#sql);
        // Every change a reader could see may change what search should index.
        this.#search.afterWrite();
        return v;
      },
      search: () => this.#search,
    };
  }
}
