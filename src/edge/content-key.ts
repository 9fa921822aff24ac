/**
 * The content API's routes, read straight off the path, and the cache key of each
 * read: its path and only the query parameters its endpoint understands, with
 * defaults filled in and in a fixed order. `?cb=1`, `?utm_source=…`, `page=1`
 * or no page, and parameters in another order are one entry, so nobody can send
 * every request past the cache to the site's single-threaded object (docs/caching.md).
 */
import { RELATED_LIMIT, SEARCH_LIMIT } from "../contract/limits";
import { parseFieldsParam, parseLimit, parsePage, parseSort, usesAdvancedListParams } from "../shared/list-params";
import { isAsteriskForm } from "../http/response-headers";
import { rawTarget } from "../http/raw-target";
import { BoundedMap, ENTRY_OVERHEAD, stringBytes } from "../shared/bounded-map";
import { siteIdOfToken } from "../contract/ids";
import { canonicalLocale } from "../contract/locale-code";

export type ContentRead = "list" | "item" | "schema" | "search" | "related";

export interface ContentRoute {
  read: ContentRead;
  token: string;
  /** The path without trailing slashes. */
  path: string;
}

/**
 * The public read a GET path names, as the router would match it (`/v1/:token/...`,
 * trailing slashes allowed), or null for anything else.
 */
export function contentRoute(pathname: string): ContentRoute | null {
  let end = pathname.length;
  while (end > 1 && pathname.charCodeAt(end - 1) === 47) end--;
  const path = end === pathname.length ? pathname : pathname.slice(0, end);
  if (!path.startsWith("/v1/")) return null;
  const parts = path.split("/");
  // "", "v1", token, ...: no empty segment, as the router's `[^/]+` would not match one.
  for (let i = 2; i < parts.length; i++) if (parts[i] === "") return null;
  const token = parts[2] as string;
  const n = parts.length;
  let read: ContentRead | null = null;
  if (n === 4) read = parts[3] === "search" ? "search" : null;
  else if (n >= 6 && parts[3] === "collections") {
    if (n === 6) read = parts[5] === "items" ? "list" : parts[5] === "schema" ? "schema" : null;
    else if (parts[5] === "items") read = n === 7 ? "item" : n === 8 && parts[7] === "related" ? "related" : null;
  }
  return read && { read, token, path };
}

const enc = encodeURIComponent;

/**
 * The query string of a read's cache key: what the site object reads of `params`, as it
 * reads it (the first of a repeated parameter, trimmed where it trims, defaults written out).
 */
export function canonicalQuery(read: ContentRead, params: URLSearchParams): string {
  switch (read) {
    case "item": {
      const fields = parseFieldsParam(params.get("fields"));
      const query = `${fields ? `&fields=${fields.map(enc).join(",")}` : ""}${localeQuery(params)}`;
      return query ? `?${query.slice(1)}` : "";
    }
    case "schema":
      return "";
    case "related":
      return `?limit=${parseLimit(params.get("limit"), RELATED_LIMIT.fallback, RELATED_LIMIT.max)}${localeQuery(params)}`;
    case "search": {
      const collection = params.get("collection");
      return `?q=${enc((params.get("q") ?? "").trim())}&limit=${parseLimit(params.get("limit"), SEARCH_LIMIT.fallback, SEARCH_LIMIT.max)}${collection ? `&collection=${enc(collection)}` : ""}${localeQuery(params)}`;
    }
    case "list":
      return listQuery(params);
  }
}

function listQuery(params: URLSearchParams): string {
  let out = `?page=${parsePage(params.get("page"))}&limit=${parseLimit(params.get("limit"))}`;
  const sort = params.get("sort");
  if (sort) {
    // The site object skips a key it has already sorted by.
    const seen = new Set<string>();
    const keys: string[] = [];
    for (const s of parseSort(sort)) {
      if (seen.has(s.key)) continue;
      seen.add(s.key);
      keys.push(`${s.descending ? "-" : ""}${s.key}`);
    }
    if (keys.length) out += `&sort=${enc(keys.join(","))}`;
  }
  // `search=` present but empty still asks for a Pro feature, so presence is kept.
  const search = params.get("search");
  if (search !== null) out += `&search=${enc(search.trim())}`;
  // Every filter is ANDed, so their order does not matter; each one (and each malformed one) counts.
  const filters: string[] = [];
  for (const [name, value] of params) if (name.startsWith("filter")) filters.push(`${enc(name)}=${enc(value)}`);
  if (filters.length) out += `&${filters.sort().join("&")}`;
  const fields = parseFieldsParam(params.get("fields"));
  if (fields) out += `&fields=${fields.map(enc).join(",")}`;
  return out + localeQuery(params);
}

/**
 * `&locale=…&fallback=…` as the site object reads them: the locale in its canonical form ("FR" and
 * "fr" are one entry), `fallback` as sent (anything but true or false is the object's 400 to give).
 */
function localeQuery(params: URLSearchParams): string {
  const locale = params.get("locale");
  const fallback = params.get("fallback");
  let out = "";
  if (locale !== null) out += `&locale=${enc(canonicalLocale(locale.trim()) ?? locale)}`;
  if (fallback !== null) out += `&fallback=${enc(fallback === "true" ? "true" : fallback)}`;
  return out;
}

/** The unversioned cache key of a content read's URL (its origin, path and canonical query), or null. */
export function contentKeyBase(url: URL): string | null {
  return contentUrl(url.href)?.base ?? null;
}

/** What the front Worker needs to answer a content read from memory, worked out once per URL. */
export interface ContentUrl extends ContentRoute {
  host: string;
  https: boolean;
  /** The unversioned cache key. */
  readonly base: string;
  /** The plan feature the read needs (filters and search need advanced lists). */
  readonly needs: "aiSearch" | "advancedLists" | null;
  /** The site the token names (null: not a token), read once per URL. */
  readonly siteId: string | null;
}

/**
 * A parsed content read. The cache key and the plan feature are worked out when first asked
 * for: a request refused for its token (src/routing/refusals.ts) never needs them.
 */
class ParsedRead implements ContentUrl {
  readonly read: ContentRead;
  readonly token: string;
  readonly path: string;
  readonly host: string;
  readonly https: boolean;
  readonly #href: string;
  #url: URL | undefined;
  #base: string | undefined;
  #needs: ContentUrl["needs"] | undefined;
  #siteId: string | null | undefined;

  constructor(route: ContentRoute, host: string, https: boolean, href: string, url?: URL) {
    this.read = route.read;
    this.token = route.token;
    this.path = route.path;
    this.host = host;
    this.https = https;
    this.#href = href;
    this.#url = url;
  }

  get #parsed(): URL {
    return (this.#url ??= new URL(this.#href));
  }

  get base(): string {
    return (this.#base ??= `${this.#parsed.origin}${this.path}${canonicalQuery(this.read, this.#parsed.searchParams)}`);
  }

  get siteId(): string | null {
    if (this.#siteId === undefined) this.#siteId = siteIdOfToken(this.token);
    return this.#siteId;
  }

  get needs(): ContentUrl["needs"] {
    if (this.#needs === undefined)
      this.#needs =
        this.read === "search" || this.read === "related"
          ? "aiSearch"
          : usesAdvancedListParams(this.#parsed.searchParams.keys())
            ? "advancedLists"
            : null;
    return this.#needs;
  }
}

// URL → what it reads, for the URLs this isolate was asked for most recently: a repeated read
// parses nothing. Bounded in entries and bytes (a URL may be kilobytes long); a stream of new
// URLs (cache-busting) only ever replaces entries.
const MAX_URLS = 2048;
const MAX_URL_BYTES = 2 * 1024 * 1024;
const urls = new BoundedMap<string, ContentUrl | null>(MAX_URLS, MAX_URL_BYTES);

/**
 * The content read `href` names, or null: remembered per URL. With `keep` false a URL this
 * isolate does not know yet is parsed but not remembered: the front Worker remembers it
 * (`keepContentUrl`) only once it is answered from memory or goes the full way, so a loop of
 * made-up URLs (random tokens, dashboard paths) neither evicts the URLs real visitors read nor
 * costs a store and a delete per request.
 */
export function contentUrl(href: string, keep = true): ContentUrl | null {
  const known = urls.get(href);
  if (known !== undefined) return known;
  const out = parseContentUrl(href);
  if (keep) remember(href, out);
  return out;
}

/** Remembers a read `contentUrl(href, false)` parsed (a no-op when this isolate knows it already). */
export function keepContentUrl(href: string, read: ContentUrl): void {
  if (!urls.has(href)) remember(href, read);
}

function remember(href: string, out: ContentUrl | null): void {
  // A parsed read keeps the URL and, once asked, its canonical base (about as long again).
  const bytes = stringBytes(href) + (out ? 2 * stringBytes(href) + ENTRY_OVERHEAD : 0) + ENTRY_OVERHEAD;
  urls.set(href, out, bytes);
}

function parseContentUrl(href: string): ContentUrl | null {
  // A plain URL is read without a parser (a refused token never needs one); the asterisk form
  // (`GET *`, "http://host*", not `?q=tomato*`) and anything unparsable are the full path's to refuse.
  const raw = rawTarget(href);
  if (raw) {
    const route = contentRoute(raw.path);
    return route ? new ParsedRead(route, raw.host.toLowerCase(), raw.https, href) : null;
  }
  if (isAsteriskForm(href)) return null;
  const url = URL.parse(href);
  const route = url && contentRoute(url.pathname);
  return url && route ? new ParsedRead(route, url.host, url.protocol === "https:", href, url) : null;
}

/** URLs remembered and the bytes they are accounted at (for the no-growth tests). */
export function contentUrlSizes(): { entries: number; bytes: number } {
  return { entries: urls.size, bytes: urls.bytes };
}
