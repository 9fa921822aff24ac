/** Files that change only with a deploy (the embed script, the API description and its viewer): minutes in browsers, a day at the edge. */
export const STATIC_CACHE_CONTROL = "public, max-age=300, s-maxage=86400";
