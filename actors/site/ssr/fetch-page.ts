/**
 * Fetching a customer's page for capture and refresh, defensively: the shared safe fetch
 * (src/net/safe-fetch.ts: http(s) only, a timeout, redirects followed by hand a bounded number
 * of times with each hop re-checked, no loopback or private addresses unless the deployment
 * allows them, `SSR_ALLOW_PRIVATE_FETCH`, set for local dev), then an HTML type and a size cap.
 * A name is resolved through DNS over HTTPS before each hop is fetched, and refused
 * when any address it resolves to is refused (docs/ssrf.md lists what is).
 */
import { readCapped } from "../../../src/http/read-capped";
import { decodePage } from "./charset";
import type { Resolver } from "../../../src/net/ssrf";
import { safeFetch, SafeFetchError } from "../../../src/net/safe-fetch";

export interface FetchLimits {
  /** For the whole fetch: every redirect, the headers and the last byte of the body. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

export const FETCH_LIMITS: FetchLimits = { timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 5 };

/** A refused or failed capture fetch, with its reason (`details.reason` of the 422). */
export { SafeFetchError as FetchPageError };

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
  const { url, res, deadline } = await safeFetch(rawUrl, {
    allowPrivate,
    timeoutMs: limits.timeoutMs,
    maxRedirects: limits.maxRedirects,
    accept: "text/html",
    noun: "page",
    hint: "capture a public page",
    resolve,
    fetcher,
  });
  const type = res.headers.get("content-type") ?? "";
  if (!/^(text\/html|application\/xhtml\+xml)\b/i.test(type)) {
    await res.body?.cancel();
    throw new SafeFetchError(`${url} is not an HTML page (content-type "${type || "none"}")`, "not_html");
  }
  return { url, ...(await readHtml(res, limits, url, deadline)) };
}

async function readHtml(
  res: Response,
  limits: FetchLimits,
  url: string,
  deadline: AbortSignal,
): Promise<{ html: string; charset: string }> {
  const tooLarge = () => new SafeFetchError(`${url} is larger than ${limits.maxBytes / 1024 / 1024} MB`, "too_large");
  if (Number(res.headers.get("content-length")) > limits.maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  if (!res.body) return { html: "", charset: "utf-8" };
  let bytes: Uint8Array;
  try {
    bytes = await readCapped(res.body, limits.maxBytes, tooLarge, deadline);
  } catch (err) {
    if (err instanceof SafeFetchError) throw err;
    // The body is part of the page: one that arrives slower than the deadline is a timeout, like no answer at all.
    if (deadline.aborted) throw new SafeFetchError(`${url} did not send its whole page within ${limits.timeoutMs / 1000} s`, "timeout");
    throw new SafeFetchError(
      `${url} broke off while sending the page (${err instanceof Error ? err.message : String(err)})`,
      "unreachable",
    );
  }
  return decodePage(bytes, res.headers.get("content-type"));
}
