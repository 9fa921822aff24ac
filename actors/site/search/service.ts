import type { SearchIndexView } from "./index-state";

/**
 * What the rest of the site object uses of semantic search (site-search.ts implements it).
 * Route handlers reach it through SiteContext, which therefore names this interface and not
 * the class, so the search code may take a SiteContext without an import circle.
 */
export interface SearchService {
  /** Each item's place in the index, for the dashboard's item list. */
  views(itemIds: readonly string[]): Map<string, SearchIndexView>;
  /** Puts failed items back in the queue; how many. */
  retryFailed(): number;
  status(): { enabled: boolean; model: string; pending: number; indexed: number; failed: number };
  /** `GET /v1/:token/search`. */
  /** `beforeModelCall` runs before the model embeds a query not seen before (it may throw to refuse). */
  search(url: URL, beforeModelCall?: () => void): Promise<Response>;
  /** `GET /v1/:token/collections/:slug/items/:itemSlug/related`. */
  related(slug: string, itemSlug: string, url: URL): Promise<Response>;
}
