import type { Collection } from "./collections";
import type { SiteSearch } from "./search/site-search";
import type { SiteRow } from "./site-row";

/** What route handlers may use of a Site object; built privately by the object, never reachable by RPC. */
export interface SiteContext {
  storage: DurableObjectStorage;
  sql: SqlStorage;
  site(): SiteRow | null;
  collections(): readonly Collection[];
  /** Drops the in-memory collection list after a schema write. */
  collectionsChanged(): void;
  /** Re-reads the site row after a write to it. */
  siteChanged(): void;
  /** Memoised `count(*)` for a list query, valid until the next content change. */
  countOf(where: string, args: readonly (string | number)[]): number;
  /** Retires every cached response of the site; returns the new version. */
  contentChanged(): number;
  /** Semantic search of the site (search/site-search.ts). */
  search(): SiteSearch;
}
