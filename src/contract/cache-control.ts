/** Cache-Control values the service answers with: one spelling each, for the front Worker, the site object and the document. */

/** Public reads (content API, rendered pages, sitemaps and feeds): kept at the edge until a change purges them. */
export const PUBLIC_CACHE_CONTROL = "public, s-maxage=31536000";

/** Files that change only with a deploy (the embed script, the API description and its viewer): minutes in browsers, a day at the edge. */
export const STATIC_CACHE_CONTROL = "public, max-age=300, s-maxage=86400";

/** Dashboard answers, errors, previews and anything else that must never be kept. */
export const NO_STORE = "no-store";

/** What browsers get on a public read: they may keep it but ask again every time (the edge answers from its copy). */
export const CLIENT_CACHE_CONTROL = "public, max-age=0, must-revalidate";

/** Stored media files and their variants: the URL names the version (its hash), so a year, never revalidated. */
export const MEDIA_CACHE_CONTROL = "public, max-age=31536000, immutable";

/** Share-link previews (a draft behind a secret URL): no shared cache may keep them, nor the browser's. */
export const PREVIEW_CACHE_CONTROL = "private, no-store";

/** An item's old address sent on to its current one (301): five minutes, since the owner may give that slug to an item again. */
export const MOVED_CACHE_CONTROL = "public, max-age=300";
