/**
 * A server-side fetch of an address someone else chose (a page to capture, a file to copy into
 * the media library): http(s) only, no credentials, one deadline for the whole fetch, redirects
 * followed by hand a bounded number of times, and every hop checked by src/net/ssrf.ts before it
 * is fetched. The caller reads the body (bounded by its own rules) before the deadline.
 */
import { checkHost, checkResolved, type Resolver, SsrfError } from "./ssrf";

export type FetchFailure =
  "bad_url" | "private_address" | "unreachable" | "http_status" | "not_html" | "too_large" | "timeout" | "too_many_redirects";

export class SafeFetchError extends Error {
  constructor(
    message: string,
    readonly reason: FetchFailure,
  ) {
    super(message);
  }
}

export interface SafeFetchOptions {
  allowPrivate: boolean;
  /** For the whole fetch: every redirect, the headers and (read by the caller) the last byte of the body. */
  timeoutMs: number;
  maxRedirects: number;
  accept: string;
  /** Says what is fetched, in messages: "page", "file". */
  noun: string;
  /** Ends a private-address refusal: "capture a public page". */
  hint: string;
  /** Required when private addresses are refused: a public-looking name may point at a private address. */
  resolve?: Resolver;
  /** The transport (tests route a public name to their own server). */
  fetcher?: typeof fetch;
}

/** The final answer (2xx), the URL it came from, and the deadline its body must arrive within. */
export async function safeFetch(rawUrl: string, o: SafeFetchOptions): Promise<{ url: string; res: Response; deadline: AbortSignal }> {
  const fetcher = o.fetcher ?? ((input, init) => fetch(input, init));
  let url = await checked(checkUrl(rawUrl, o), o);
  const deadline = AbortSignal.timeout(o.timeoutMs);
  for (let hop = 0; ; hop++) {
    let res: Response;
    try {
      res = await fetcher(url, {
        redirect: "manual",
        signal: deadline,
        headers: { accept: o.accept, "user-agent": "open-content-edge" },
      });
    } catch (err) {
      if (deadline.aborted) throw new SafeFetchError(`${url} did not answer within ${o.timeoutMs / 1000} s`, "timeout");
      throw new SafeFetchError(`${url} could not be reached (${err instanceof Error ? err.message : String(err)})`, "unreachable");
    }
    if (res.status >= 300 && res.status < 400 && res.headers.has("location")) {
      await res.body?.cancel();
      if (hop >= o.maxRedirects) throw new SafeFetchError(`more than ${o.maxRedirects} redirects from ${rawUrl}`, "too_many_redirects");
      url = await checked(checkUrl(new URL(res.headers.get("location") as string, url).href, o), o);
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new SafeFetchError(`${url} answered HTTP ${res.status}`, "http_status");
    }
    return { url, res, deadline };
  }
}

function checkUrl(raw: string, o: SafeFetchOptions): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new SafeFetchError(`"${raw}" is not a URL`, "bad_url");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new SafeFetchError(`only http(s) ${o.noun}s can be fetched, not ${u.protocol}`, "bad_url");
  if (u.username || u.password) throw new SafeFetchError(`${o.noun} URLs may not carry credentials`, "bad_url");
  try {
    checkHost(u, o.allowPrivate, o.hint);
  } catch (err) {
    throw err instanceof SsrfError ? new SafeFetchError(err.message, err.reason) : err;
  }
  return u.href;
}

async function checked(url: string, o: SafeFetchOptions): Promise<string> {
  try {
    return await checkResolved(url, o.allowPrivate, o.hint, o.resolve);
  } catch (err) {
    throw err instanceof SsrfError ? new SafeFetchError(err.message, err.reason) : err;
  }
}
