/** Limits of the API that clients see (in the document and in error messages). */

/** A JSON request body, read in full before anything else sees it. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Items in one batch create. */
export const MAX_BATCH = 1000;
/** `limit` of semantic search: its default and its most. */
export const SEARCH_LIMIT = { fallback: 10, max: 50 };
/** Far more than a search box holds; a longer `q` is refused before the language check or the model sees it. */
export const MAX_QUERY_CHARS = 1000;
/** `limit` of related items: its default and its most. */
export const RELATED_LIMIT = { fallback: 5, max: 20 };
/** The dashboard's item-table `search` text, in characters. */
export const DASHBOARD_SEARCH_MAX = 200;
/** A publish webhook's body. */
export const WEBHOOK_MAX_BYTES = 1024 * 1024;
