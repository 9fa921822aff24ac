/**
 * Fetching a customer's page for capture and refresh, defensively: http(s)
 * only, a timeout, a size cap, redirects followed by hand a bounded number of
 * times (each hop re-checked), and no loopback or private addresses unless
 * the deployment allows them (`SSR_ALLOW_PRIVATE_FETCH`, set for local dev).
 * A name is resolved through DNS over HTTPS before each hop is fetched, and refused
 * when any address it resolves to is refused (docs/ssrf.md lists what is).
 */
import { readCapped } from "../../../src/http/read-capped";
import { decodePage } from "./charset";

export interface FetchLimits {
  /** For the whole fetch: every redirect, the headers and the last byte of the body. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

export const FETCH_LIMITS: FetchLimits = { timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 5 };

export class FetchPageError extends Error {
  constructor(
    message: string,
    readonly reason:
      "bad_url" | "private_address" | "unreachable" | "http_status" | "not_html" | "too_large" | "timeout" | "too_many_redirects",
  ) {
    super(message);
  }
}

export interface FetchedPage {
  url: string;
  html: string;
  /** The encoding the page was decoded from (it is stored as UTF-8). */
  charset: string;
}

/** The addresses a name resolves to (A and AAAA, through any CNAME); throws when it cannot be resolved. */
export type Resolver = (hostname: string) => Promise<string[]>;

/**
 * `resolve` is required when private addresses are refused: a public-looking name may point at
 * a private address. `fetcher` is the transport (tests route a public name to their page server).
 */
export async function fetchPage(
  rawUrl: string,
  allowPrivate: boolean,
  limits: FetchLimits = FETCH_LIMITS,
  resolve?: Resolver,
  fetcher: typeof fetch = (input, init) => fetch(input, init),
): Promise<FetchedPage> {
  let url = await checkResolved(checkUrl(rawUrl, allowPrivate), allowPrivate, resolve);
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  for (let hop = 0; ; hop++) {
    let res: Response;
    try {
      res = await fetcher(url, {
        redirect: "manual",
        signal: deadline,
        headers: { accept: "text/html", "user-agent": "open-content-edge capture" },
      });
    } catch (err) {
      if (deadline.aborted) throw new FetchPageError(`${url} did not answer within ${limits.timeoutMs / 1000} s`, "timeout");
      throw new FetchPageError(`${url} could not be reached (${err instanceof Error ? err.message : String(err)})`, "unreachable");
    }
    if (res.status >= 300 && res.status < 400 && res.headers.has("location")) {
      await res.body?.cancel();
      if (hop >= limits.maxRedirects)
        throw new FetchPageError(`more than ${limits.maxRedirects} redirects from ${rawUrl}`, "too_many_redirects");
      url = await checkResolved(checkUrl(new URL(res.headers.get("location") as string, url).href, allowPrivate), allowPrivate, resolve);
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new FetchPageError(`${url} answered HTTP ${res.status}`, "http_status");
    }
    const type = res.headers.get("content-type") ?? "";
    if (!/^(text\/html|application\/xhtml\+xml)\b/i.test(type)) {
      await res.body?.cancel();
      throw new FetchPageError(`${url} is not an HTML page (content-type "${type || "none"}")`, "not_html");
    }
    return { url, ...(await readHtml(res, limits, url, deadline)) };
  }
}

async function readHtml(
  res: Response,
  limits: FetchLimits,
  url: string,
  deadline: AbortSignal,
): Promise<{ html: string; charset: string }> {
  const tooLarge = () => new FetchPageError(`${url} is larger than ${limits.maxBytes / 1024 / 1024} MB`, "too_large");
  if (Number(res.headers.get("content-length")) > limits.maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  if (!res.body) return { html: "", charset: "utf-8" };
  let bytes: Uint8Array;
  try {
    bytes = await readCapped(res.body, limits.maxBytes, tooLarge, deadline);
  } catch (err) {
    if (err instanceof FetchPageError) throw err;
    // The body is part of the page: one that arrives slower than the deadline is a timeout, like no answer at all.
    if (deadline.aborted) throw new FetchPageError(`${url} did not send its whole page within ${limits.timeoutMs / 1000} s`, "timeout");
    throw new FetchPageError(
      `${url} broke off while sending the page (${err instanceof Error ? err.message : String(err)})`,
      "unreachable",
    );
  }
  return decodePage(bytes, res.headers.get("content-type"));
}

function checkUrl(raw: string, allowPrivate: boolean): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new FetchPageError(`"${raw}" is not a URL`, "bad_url");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new FetchPageError(`only http(s) pages can be captured, not ${u.protocol}`, "bad_url");
  if (u.username || u.password) throw new FetchPageError("page URLs may not carry credentials", "bad_url");
  if (!allowPrivate && isPrivateHost(u.hostname)) {
    throw new FetchPageError(`${u.hostname} is a loopback or private address; capture a public page`, "private_address");
  }
  return u.href;
}

/** A name's addresses, each judged as a literal: one refused address refuses the name. */
async function checkResolved(url: string, allowPrivate: boolean, resolve?: Resolver): Promise<string> {
  if (allowPrivate) return url;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  if (/^[\d.]+$/.test(host) || host.includes(":")) return url;
  if (!resolve) throw new FetchPageError(`${host} cannot be checked: no resolver`, "unreachable");
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch (err) {
    throw new FetchPageError(`${host} could not be resolved (${err instanceof Error ? err.message : String(err)})`, "unreachable");
  }
  if (addresses.length === 0) throw new FetchPageError(`${host} does not resolve to any address`, "unreachable");
  const refused = addresses.find((a) => isPrivateHost(a.includes(":") ? `[${a}]` : a));
  if (refused)
    throw new FetchPageError(`${host} resolves to ${refused}, a loopback or private address; capture a public page`, "private_address");
  return url;
}

/** Literal loopback, private, link-local and unique-local addresses, and names that only resolve locally (docs/ssrf.md). */
export function isPrivateHost(hostname: string): boolean {
  // A trailing dot names the same host ("localhost." is localhost).
  const h = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.+$/, "");
  if (
    h === "localhost" ||
    h.endsWith(".localhost") ||
    h.endsWith(".local") ||
    h.endsWith(".internal") ||
    (!h.includes(".") && !h.includes(":"))
  )
    return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 198 && (b === 18 || b === 19)) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  if (h.includes(":")) return isPrivateV6(h);
  return false;
}

/**
 * IPv6: loopback and unspecified, IPv4-mapped/compatible/translated forms (judged
 * by the IPv4 address they carry), unique-local, link-local and site-local.
 */
function isPrivateV6(h: string): boolean {
  const groups = expandV6(h);
  if (!groups) return true; // unparseable: refuse rather than guess
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const v4 = () => `${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`;
  const zeroPrefix = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroPrefix && (g5 === 0 || g5 === 0xffff)) return g6 === 0 && g7 <= 1 ? true : isPrivateHost(v4()); // ::, ::1, ::a.b.c.d, ::ffff:a.b.c.d
  // ::ffff:0:a.b.c.d (IPv4-translated, RFC 2765): refused whatever it carries.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return true;
  if (g0 === 0x64 && g1 === 0xff9b) return true; // 64:ff9b::/96 (NAT64): a gateway's way into IPv4 networks
  if (g0 === 0x2002) return true; // 6to4 2002::/16
  if (g0 === 0x2001 && g1 === 0) return true; // Teredo 2001::/32
  if (g0 === 0x2001 && g1 === 0xdb8) return true; // documentation 2001:db8::/32
  return (g0 & 0xfe00) === 0xfc00 || (g0 & 0xffc0) === 0xfe80 || (g0 & 0xffc0) === 0xfec0 || (g0 & 0xff00) === 0xff00;
}

function expandV6(h: string): number[] | null {
  let text = h;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const p = (dotted[1] as string).split(".").map(Number);
    text = text.slice(0, -(dotted[1] as string).length) + `${((p[0]! << 8) | p[1]!).toString(16)}:${((p[2]! << 8) | p[3]!).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const a = head ? head.split(":") : [];
  const b = tail === undefined ? [] : tail ? tail.split(":") : [];
  const fill = tail === undefined ? 0 : 8 - a.length - b.length;
  const all = [...a, ...Array<string>(Math.max(fill, 0)).fill("0"), ...b];
  if (all.length !== 8 || all.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return all.map((g) => parseInt(g, 16));
}
