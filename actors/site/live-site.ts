import type { Plan } from "../../src/contract/plans";
import { localeSet, type SiteLocaleSet } from "./storage/locale-set";
import { readLocaleRows } from "./storage/locales-table";
import { safeEqual } from "../../src/ids";
import { BoundedMap, ENTRY_OVERHEAD, stringBytes } from "../../src/shared/bounded-map";
import {
  changeOf,
  CHANGES_KEPT,
  SEARCH_GENERATIONS,
  searchVersionOf,
  type VersionChange,
  type VersionChanges,
} from "../../src/contract/cache-version";
import type { SiteContext } from "./context";
import type { Collection } from "./storage/rows";
import { readCollections } from "./content/collections";
import { foldStoredSearchTextOnce } from "./content/search-text";
import { cleanStoredRichTextOnce } from "./content/rich-text-cleanup";
import type { DocumentStats } from "./seo/document-stats";
import { scheduleDocuments } from "./seo/documents";
import { runSiteMigrations } from "./storage/migrations";
import { refreshPublicData } from "./content/public-items";
import { PublicRebuild } from "./reads/public-rebuild";
import { SiteLimits } from "./limits/site-limits";
import { ItemJsonMemo } from "./reads/item-json-memo";
import { SiteSearch } from "./search/site-search";
import { bumpCacheVersion, readSite, type SiteRow, updateSite } from "./storage/site-row";
import { readCapture, type StoredCapture } from "./ssr/capture-store";
import { countWhere, ORDER_MEMO_ROWS, orderedSeqs, syncFieldIndexes } from "./storage/items-table";
import { MIGRATION_MARKER } from "../shared/migration-marker";

export interface SiteMeta {
  siteId: string;
  plan: Plan;
  version: number;
  /** The version of `/search` and `/related` answers (src/contract/cache-version.ts). */
  searchVersion: number;
  /** What the recent versions changed (src/contract/cache-version.ts): lets the front Worker carry single-item answers across. */
  changes: VersionChanges;
}

/** Where the search generation is kept (the object's key-value storage, beside the migrations' own key). */
const SEARCH_GENERATION_KEY = "searchGeneration";

/**
 * Whether a site database was ever built in this object: the migration marker, or (a database
 * from before the marker) its site table. Both are reads; nothing is written to find out.
 */
export function hasDatabase(storage: DurableObjectStorage): boolean {
  if (storage.kv.get(MIGRATION_MARKER) !== undefined) return true;
  return storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'site'").toArray().length > 0;
}

/**
 * What a Site object holds in memory beside its database: the site row, its collections and
 * capture, the memos of list queries and item JSON, the record of what recent cache versions
 * changed, the search generation. It is the `SiteContext` every room is handed; its members are
 * arrow functions so a room may pass one on by itself (`s.collections`).
 */
export class LiveSite implements SiteContext {
  readonly sql: SqlStorage;
  readonly limits: SiteLimits;
  /** Semantic search of the site; its job runs on the alarm (job-registry.ts). */
  readonly searchService: SiteSearch;
  // The kept public JSON of items with media, rebuilt a chunk per alarm run after the image resizing hosts change.
  readonly publicRebuild: PublicRebuild;
  #site: SiteRow | null = null;
  #collections: Collection[] | null = null;
  #locales: SiteLocaleSet | null = null;
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
  // Index changes since the cache version was last bumped: the generation of `/search` and
  // `/related` answers (src/contract/cache-version.ts), kept in the object's key-value storage.
  #searchGeneration = 0;
  // What the last CHANGES_KEPT cache versions changed, in memory only: after a restart the versions
  // before it are unknown, which counts as "anything changed" (src/contract/cache-version.ts).
  #changes: VersionChange[] = [];

  constructor(
    readonly storage: DurableObjectStorage,
    readonly env: Env,
  ) {
    this.sql = storage.sql;
    this.limits = new SiteLimits(env, () => this.#site?.id);
    this.searchService = new SiteSearch(this, env);
    this.publicRebuild = new PublicRebuild(storage);
  }

  /**
   * Brings the database up to date and wakes what a restart left (run under blockConcurrencyWhile,
   * before any request sees the database): stored values cleaned once, kept public JSON filled in,
   * search woken. The jobs are armed by the caller (job-registry.ts).
   */
  async open(): Promise<void> {
    await runSiteMigrations(this.storage);
    this.#site = readSite(this.sql);
    this.#searchGeneration = (await this.storage.get<number>(SEARCH_GENERATION_KEY)) ?? 0;
    // Field indexes of an older shape are built again (once: the same shape is left as it is).
    syncFieldIndexes(this.sql, readCollections(this.sql));
    const cleaned = cleanStoredRichTextOnce(this.storage, readCollections(this.sql));
    const folded = foldStoredSearchTextOnce(this.storage);
    if ((cleaned > 0 || folded > 0) && this.#site) {
      bumpCacheVersion(this.sql);
      this.#site = readSite(this.sql);
    }
    // Public JSON for items written before it was kept on write; all of it if values were just cleaned.
    for (const c of readCollections(this.sql)) refreshPublicData(this.sql, c, cleaned === 0);
    // Published items from before search existed, work left by a restart, or a new model.
    this.searchService.wake();
  }

  /** The site row was just written by `init` (or the site is being erased: null). */
  siteIs(site: SiteRow | null): void {
    this.#site = site;
  }

  site = (): SiteRow | null => this.#site;
  collections = (): readonly Collection[] => (this.#collections ??= readCollections(this.sql));
  collectionsChanged = (): void => {
    this.#collections = null;
  };
  locales = (): SiteLocaleSet => (this.#locales ??= localeSet(readLocaleRows(this.sql)));
  localesChanged = (): void => {
    this.#locales = null;
  };
  capture = (): StoredCapture | null => (this.#capture === undefined ? (this.#capture = readCapture(this.sql)) : this.#capture);
  documents = (): DocumentStats | null => this.#documents;
  documentsBuilt = (stats: DocumentStats): void => {
    this.#documents = stats;
  };
  captureChanged = (): void => {
    this.#capture = undefined;
  };
  siteChanged = (): void => {
    this.#site = readSite(this.sql);
  };
  orderOf = (where: string, args: readonly (string | number)[], orderBy: string, total: number): readonly number[] | null => {
    if (total > ORDER_MEMO_ROWS) return null;
    const key = `${where}\u0000${JSON.stringify(args)}\u0000${orderBy}`;
    let seqs = this.#orders.get(key);
    if (seqs === undefined) {
      seqs = orderedSeqs(this.sql, where, orderBy, args);
      this.#orders.set(key, seqs, stringBytes(key) + 8 * seqs.length + ENTRY_OVERHEAD);
    }
    return seqs;
  };
  itemJson = (): ItemJsonMemo => this.#itemJson;
  countOf = (where: string, args: readonly (string | number)[]): number => {
    const key = `${where}\u0000${JSON.stringify(args)}`;
    let n = this.#counts.get(key);
    if (n === undefined) {
      n = countWhere(this.sql, where, args);
      this.#counts.set(key, n, stringBytes(key) + ENTRY_OVERHEAD);
    }
    return n;
  };
  contentChanged = (items?: readonly string[], fields?: readonly string[]): number => {
    this.#counts.clear();
    this.#orders.clear();
    // The sitemap and feeds follow every visible change, off the request path (the alarm runs it at once).
    scheduleDocuments(this, items);
    const v = this.cacheChanged(items, fields);
    // Every change a reader could see may change what search should index.
    this.searchService.afterWrite();
    return v;
  };
  cacheChanged = (items?: readonly string[], fields?: readonly string[]): number => {
    const v = bumpCacheVersion(this.sql);
    this.#noteChange(v, items ?? null, fields);
    // Only the version changed: the row in memory follows without reading it again.
    if (this.#site) this.#site = { ...this.#site, cacheVersion: v };
    if (this.#searchGeneration !== 0) this.#setSearchGeneration(0);
    return v;
  };
  searchChanged = (): void => {
    if (this.#searchGeneration + 1 >= SEARCH_GENERATIONS) this.cacheChanged();
    else this.#setSearchGeneration(this.#searchGeneration + 1);
  };
  search = (): SiteSearch => this.searchService;
  publicStaleAfter = (): number | null => this.publicRebuild.staleAfter;
  rebuildPublicData = (): void => this.publicRebuild.start();

  /** A workspace plan change; retires cached responses so plan-gated answers change at once. */
  setPlan(plan: Plan): number {
    updateSite(this.sql, { plan });
    this.#counts.clear();
    this.#orders.clear();
    const version = bumpCacheVersion(this.sql);
    this.#noteChange(version, null);
    this.#site = readSite(this.sql);
    this.searchService.followPlan();
    this.searchService.afterWrite();
    return version;
  }

  /** What the recent versions changed, oldest first (the answer to a write carries it). */
  changes(): readonly VersionChange[] {
    return this.#changes;
  }

  /** What the front Worker needs before it may answer from the edge cache, for the site's token; null for a wrong one. */
  metaOf(token: string): SiteMeta | null {
    const site = this.#site;
    if (!site || !safeEqual(token, site.token)) return null;
    return this.metaOfSite(site);
  }

  metaOfSite(site: SiteRow): SiteMeta {
    return {
      siteId: site.id,
      plan: site.plan,
      version: site.cacheVersion,
      searchVersion: searchVersionOf(site.cacheVersion, this.#searchGeneration),
      changes: this.#changes,
    };
  }

  /** Entries of the memos this object keeps (the no-growth tests and the bench read them). */
  memoSizes(): { counts: number; orders: number; itemJson: number } {
    return { counts: this.#counts.size, orders: this.#orders.size, itemJson: this.#itemJson.size };
  }

  #setSearchGeneration(n: number): void {
    this.#searchGeneration = n;
    // Written with this request's other writes: the output gate holds the answer until it is stored.
    void this.storage.put(SEARCH_GENERATION_KEY, n);
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
}
