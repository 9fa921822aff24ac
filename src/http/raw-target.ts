/**
 * The parts of a request's URL read straight off the string workerd hands over, without a URL
 * parser, for the requests the front Worker answers before the full path (held reads and
 * refusals, src/index.ts). Only a URL in the plain form, whose parse would change nothing of
 * what is read here (http or https, a path of letters, digits, `_`, `-` and `/`), is read;
 * anything else is null and goes through `new URL` as before.
 */
export interface RawTarget {
  /** The Host as sent (the callers lower-case or compare it as they need). */
  host: string;
  https: boolean;
  path: string;
}

const PLAIN_PATH = /^\/[A-Za-z0-9_\-/]*$/;

export function rawTarget(href: string): RawTarget | null {
  const start = href.startsWith("https://") ? 8 : href.startsWith("http://") ? 7 : 0;
  if (start === 0) return null;
  const slash = href.indexOf("/", start);
  if (slash < 0) return null;
  let end = href.indexOf("?", slash);
  const hash = href.indexOf("#", slash);
  if (end < 0 || (hash >= 0 && hash < end)) end = hash < 0 ? href.length : hash;
  const path = href.slice(slash, end);
  if (!PLAIN_PATH.test(path)) return null;
  return { host: href.slice(start, slash), https: start === 8, path };
}
