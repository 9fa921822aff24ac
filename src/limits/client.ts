/**
 * Whose requests count together. Cloudflare sets CF-Connecting-IP in production; an IPv6 client
 * owns (at least) a /64, so it is keyed by the first 64 bits of its parsed address, whatever way
 * the address was written. A request without the header (a local run, a test, the benchmarks)
 * must not land in one bucket with every other such client locally: there it is keyed by what
 * it says about itself (forwarded address, user agent), which is only trustworthy where no one
 * forges it. In production it is "unknown" (see localClientKeys).
 */

/** The 8 groups of an IPv6 address (with an embedded IPv4 tail), or null when it is not one. */
export function parseIpv6(text: string): number[] | null {
  let s = text.trim().toLowerCase();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(":") || !/^[0-9a-f:.]+$/.test(s)) return null;
  let tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const bytes = parseIpv4(v4[1]!);
    if (!bytes) return null;
    tail = [(bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!];
    s = s.slice(0, -v4[1]!.length);
    if (s.endsWith(":") && !s.endsWith("::")) s = s.slice(0, -1);
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const part = (h: string) => (h === "" ? [] : h.split(":"));
  const head = part(halves[0]!);
  const rest = halves.length === 2 ? part(halves[1]!) : [];
  if ([...head, ...rest].some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  const nums = (gs: string[]) => gs.map((g) => parseInt(g, 16));
  const known = head.length + rest.length + tail.length;
  if (halves.length === 1) return known === 8 ? [...nums(head), ...tail] : null;
  if (known > 7) return null;
  return [...nums(head), ...new Array<number>(8 - known).fill(0), ...nums(rest), ...tail];
}

export function parseIpv4(text: string): number[] | null {
  const parts = text.trim().split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.map(Number);
}

// An IPv4 address as Cloudflare writes it (no spaces, no leading zeros): its own key, read with
// one regular expression instead of a split and a parse (every rate-limited read asks).
const CANONICAL_V4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** A client's address as a rate-limit key: IPv4 as is, IPv6 as its /64; null when it is not an address. */
export function addressKey(text: string): string | null {
  if (CANONICAL_V4.test(text)) return text;
  const v4 = parseIpv4(text);
  if (v4) return v4.join(".");
  const v6 = parseIpv6(text);
  if (!v6) return null;
  // An IPv4-mapped address (::ffff:a.b.c.d) is that IPv4 client.
  if (v6.slice(0, 5).every((g) => g === 0) && v6[5] === 0xffff) return `${v6[6]! >> 8}.${v6[6]! & 255}.${v6[7]! >> 8}.${v6[7]! & 255}`;
  return `${v6
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/**
 * Whether a request without CF-Connecting-IP may be keyed by what it says about itself: only in
 * local runs (wrangler.toml's top-level `LOCAL_CLIENT_KEYS`, which `--env production` does not
 * set). In production those headers are the client's to choose, so a client could pick a new
 * bucket per request: there every such request shares one "unknown" bucket (per site).
 */
export function localClientKeys(env: { LOCAL_CLIENT_KEYS?: string }): boolean {
  return env.LOCAL_CLIENT_KEYS === "true";
}

/** The key a client's requests are counted under. */
export function clientKey(request: Request, env: { LOCAL_CLIENT_KEYS?: string }): string {
  const ip = request.headers.get("cf-connecting-ip");
  const fromIp = ip === null ? null : addressKey(ip);
  if (fromIp) return fromIp;
  if (!localClientKeys(env)) return "unknown";
  const forwarded = (request.headers.get("x-forwarded-for") ?? "").split(",")[0]!.trim();
  const fromForwarded = forwarded ? addressKey(forwarded) : null;
  if (fromForwarded) return `fwd:${fromForwarded}`;
  return `anon:${fnv(`${request.headers.get("user-agent") ?? ""}\u0000${request.headers.get("accept-language") ?? ""}`)}`;
}

function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}
