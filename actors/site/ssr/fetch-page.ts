/**
 * Fetching a customer's page for capture and refresh, defensively: http(s)
 * only, a timeout, a size cap, redirects followed by hand a bounded number of
 * times (each hop re-checked), and no loopback or private addresses unless
 * the deployment allows them (`SSR_ALLOW_PRIVATE_FETCH`, set for local dev).
 */
import { readCapped } from "../../../src/http/read-capped";

export const FETCH_LIMITS = { timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 5 } as const;

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
}

export async function fetchPage(rawUrl: string, allowPrivate: boolean, limits = FETCH_LIMITS): Promise<FetchedPage> {
  let url = checkUrl(rawUrl, allowPrivate);
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  for (let hop = 0; ; hop++) {
    let res: Response;
    try {
      res = await fetch(url, {
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
      url = checkUrl(new URL(res.headers.get("location") as string, url).href, allowPrivate);
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
    return { url, html: await readHtml(res, limits.maxBytes, url) };
  }
}

async function readHtml(res: Response, maxBytes: number, url: string): Promise<string> {
  const tooLarge = () => new FetchPageError(`${url} is larger than ${maxBytes / 1024 / 1024} MB`, "too_large");
  if (Number(res.headers.get("content-length")) > maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  if (!res.body) return "";
  return new TextDecoder("utf-8", { fatal: false, ignoreBOM: false }).decode(await readCapped(res.body, maxBytes, tooLarge));
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

/** Literal loopback, private, link-local and unique-local addresses, and names that only resolve locally. */
export function isPrivateHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "");
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
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  if (h.includes(":")) {
    if (h === "::1" || h === "::") return true;
    const mapped = /^::ffff:(.+)$/.exec(h);
    if (mapped) return mapped[1]!.includes(".") ? isPrivateHost(mapped[1]!) : true;
    return /^(fc|fd|fe8|fe9|fea|feb)/.test(h);
  }
  return false;
}
