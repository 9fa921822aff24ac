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
import { checkHost, checkResolved as checkResolvedBy, type Resolver, SsrfError } from "../../../src/net/ssrf";

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

export type { Resolver };

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

const HINT = "capture a public page";

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
  asFetchError(() => checkHost(u, allowPrivate, HINT));
  return u.href;
}

async function checkResolved(url: string, allowPrivate: boolean, resolve?: Resolver): Promise<string> {
  try {
    return await checkResolvedBy(url, allowPrivate, HINT, resolve);
  } catch (err) {
    throw err instanceof SsrfError ? new FetchPageError(err.message, err.reason) : err;
  }
}

function asFetchError(check: () => void): void {
  try {
    check();
  } catch (err) {
    throw err instanceof SsrfError ? new FetchPageError(err.message, err.reason) : err;
  }
}
