import type { Collection } from "./storage/rows";
import type { SiteLocaleSet } from "./storage/locale-set";
import type { DocumentStats } from "./seo/document-stats";
import type { StoredCapture } from "./ssr/capture-store";
import type { SearchService } from "./search/service";
import type { SiteRow } from "./storage/site-row";
import type { ItemJsonMemo } from "./reads/item-json-memo";
import type { SiteLimits } from "./limits/site-limits";

/** What route handlers may use of a Site object; built privately by the object, never reachable by RPC. */
export interface SiteContext {
  env: Env;
  storage: DurableObjectStorage;
  sql: SqlStorage;
  site(): SiteRow | null;
  collections(): readonly Collection[];
  /** Drops the in-memory collection list after a schema write. */
  collectionsChanged(): void;
  /** The site's locales and their chains, memoised (storage/locale-set.ts). */
  locales(): SiteLocaleSet;
  /** Drops the memoised locales after a write to them. */
  localesChanged(): void;
  /** Re-reads the site row after a write to it. */
  siteChanged(): void;
  /** Memoised `count(*)` for a list query, valid until the next content change. */
  countOf(where: string, args: readonly (string | number)[]): number;
  /**
   * The seqs of a list query's rows in its order, memoised like `countOf`, for a query of at most
   * ORDER_MEMO_ROWS rows (else null): every page of one order is then a slice of it.
   */
  orderOf(where: string, args: readonly (string | number)[], orderBy: string, total: number): readonly number[] | null;
  /** Published items' content API JSON, kept across versions until a change names them (reads/item-json-memo.ts). */
  itemJson(): ItemJsonMemo;
  /** The captured page for server rendering, memoised; null before the first capture. */
  capture(): StoredCapture | null;
  captureChanged(): void;
  /** The last sitemap/feed rebuild since the object started (null before one). */
  documents(): DocumentStats | null;
  documentsBuilt(stats: DocumentStats): void;
  /**
   * Retires every cached response of the site without anything else following; returns the new
   * version. `items`: the change touched these items and nothing else (their data, status or
   * existence), so the front Worker may carry answers that depend on other single items across it.
   * `fields`: the change was edits of published items that stayed published, and these are the
   * public keys they changed (`changedPublicKeys`): lists that show none of the items and depend on
   * none of the keys may be carried too.
   */
  cacheChanged(items?: readonly string[], fields?: readonly string[]): number;
  /** Retires every cached response of the site; returns the new version. `items`, `fields` as for `cacheChanged`. */
  contentChanged(items?: readonly string[], fields?: readonly string[]): number;
  /**
   * The search index changed (items embedded or removed): retires the cached `/search` and
   * `/related` answers alone; no list, item or page answer depends on the index.
   */
  searchChanged(): void;
  /**
   * Null when every item's kept public JSON is current; else the `seq` through which the kept JSON
   * of items with media is (a rebuild after the image resizing hosts changed, reads/public-rebuild.ts).
   */
  publicStaleAfter(): number | null;
  /** The image resizing hosts changed: the public JSON of every item with media is rebuilt on the alarm, a chunk per run. */
  rebuildPublicData(): void;
  /** Semantic search of the site (search/site-search.ts). */
  search(): SearchService;
  /** The site's own rate limits (limits/site-limits.ts). */
  limits: SiteLimits;
}
