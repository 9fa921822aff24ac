/**
 * The cache versions of a site's public answers (docs/caching.md, "Versions"). Every content
 * change bumps the site's cache version, which retires every answer. Answers of semantic search
 * and related items (`/search`, `/related`) also depend on the search index, which changes again
 * when the index has embedded a change: those answers carry a version of their own, the cache
 * version with the index's generation since it, so re-embedding retires them alone and every
 * list, item and page answer stays valid.
 */

/** How many index changes one cache version can count before the site's cache version is bumped instead. */
export const SEARCH_GENERATIONS = 1_000_000;

/** The version of search and related answers: greater for every newer cache version, and for every index change within one. */
export function searchVersionOf(cacheVersion: number, generation = 0): number {
  return cacheVersion * SEARCH_GENERATIONS + generation;
}
