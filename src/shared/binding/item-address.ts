/**
 * How an item page finds the item it shows from its own address, so one page can show every item
 * on any host: `?slug=oak-planter` (static hosts without rewrites, Webflow's static pages), then
 * `#oak-planter`, then the last path segment (`/products/oak-planter`, behind a rewrite or the
 * SEO Engine). A part that is not a slug is skipped, so `/products/item.html` alone names no item.
 */

/** An item slug as the content API writes them: lowercase letters, digits and single hyphens. */
const ITEM_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SLUG_MAX = 128;

/** The query parameter an item address carries its slug in. */
export const SLUG_PARAM = "slug";

export interface PageAddress {
  pathname: string;
  search: string;
  hash: string;
}

function asSlug(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let v: string;
  try {
    v = decodeURIComponent(raw).trim();
  } catch {
    return null;
  }
  return v.length <= SLUG_MAX && ITEM_SLUG.test(v) ? v : null;
}

/** The first value of a query parameter (`?a=1&slug=x`): neither DOM nor Workers types are used here. */
function queryValue(search: string, name: string): string | null {
  for (const pair of search.replace(/^\?/, "").split("&")) {
    const eq = pair.indexOf("=");
    if (eq > 0 && pair.slice(0, eq) === name) return pair.slice(eq + 1).replaceAll("+", " ");
  }
  return null;
}

/** The slug the address names, or null when it names none. */
export function slugFromAddress(address: PageAddress): string | null {
  const fromQuery = asSlug(queryValue(address.search, SLUG_PARAM));
  if (fromQuery) return fromQuery;
  const fromHash = asSlug(address.hash.replace(/^#/, ""));
  if (fromHash) return fromHash;
  return asSlug(address.pathname.split("/").filter(Boolean).pop());
}
