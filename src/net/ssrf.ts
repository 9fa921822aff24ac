/**
 * Server-side fetches of addresses someone else chose (a page to capture, a webhook
 * receiver): which hosts are refused and how a name's addresses are checked
 * (docs/ssrf.md). One module, so every fetcher refuses the same addresses.
 */

export type SsrfReason = "bad_url" | "private_address" | "unreachable";

export class SsrfError extends Error {
  constructor(
    message: string,
    readonly reason: SsrfReason,
  ) {
    super(message);
  }
}

/** The addresses a name resolves to (A and AAAA, through any CNAME); throws when it cannot be resolved. */
export type Resolver = (hostname: string) => Promise<string[]>;

/** Refuses a literal loopback or private host; `hint` ends the message ("capture a public page"). */
export function checkHost(u: URL, allowPrivate: boolean, hint: string): void {
  if (!allowPrivate && isPrivateHost(u.hostname)) {
    throw new SsrfError(`${u.hostname} is a loopback or private address; ${hint}`, "private_address");
  }
}

/** A name's addresses, each judged as a literal: one refused address refuses the name. */
export async function checkResolved(url: string, allowPrivate: boolean, hint: string, resolve?: Resolver): Promise<string> {
  if (allowPrivate) return url;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  if (/^[\d.]+$/.test(host) || host.includes(":")) return url;
  if (!resolve) throw new SsrfError(`${host} cannot be checked: no resolver`, "unreachable");
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch (err) {
    throw new SsrfError(`${host} could not be resolved (${err instanceof Error ? err.message : String(err)})`, "unreachable");
  }
  if (addresses.length === 0) throw new SsrfError(`${host} does not resolve to any address`, "unreachable");
  const refused = addresses.find((a) => isPrivateHost(a.includes(":") ? `[${a}]` : a));
  if (refused) throw new SsrfError(`${host} resolves to ${refused}, a loopback or private address; ${hint}`, "private_address");
  return url;
}

/**
 * Literal loopback, private, link-local, unique-local, documentation and other special-purpose
 * addresses that are not globally reachable, and names that only resolve locally (docs/ssrf.md).
 */
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
    const [a, b, c] = [Number(v4[1]), Number(v4[2]), Number(v4[3])];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 198 && (b === 18 || b === 19)) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      // IETF protocol assignments 192.0.0.0/24, and the documentation ranges TEST-NET-1/2/3
      // (RFC 5737): nothing public is served there, so a name resolving there is misdirected.
      (a === 192 && b === 0 && (c === 0 || c === 2)) ||
      (a === 198 && b === 51 && c === 100) ||
      (a === 203 && b === 0 && c === 113) ||
      // The deprecated 6to4 relay anycast 192.88.99.0/24 (RFC 7526): a relay into IPv6 networks.
      (a === 192 && b === 88 && c === 99) ||
      // Multicast 224.0.0.0/4, reserved 240.0.0.0/4 and broadcast 255.255.255.255.
      a >= 224
    );
  }
  if (h.includes(":")) return isPrivateV6(h);
  return false;
}

/**
 * IPv6: loopback and unspecified, IPv4-mapped/compatible/translated forms (judged
 * by the IPv4 address they carry), the special-purpose blocks of the IANA registry that are
 * not globally reachable, documentation prefixes, unique-local, link-local, site-local, multicast.
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
  // IETF protocol assignments 2001::/23 (Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID and
  // the anycast service addresses among them): no public content is served from there.
  if (g0 === 0x2001 && g1 < 0x200) return true;
  if (g0 === 0x2001 && g1 === 0xdb8) return true; // documentation 2001:db8::/32
  if (g0 === 0x3fff && g1 < 0x1000) return true; // documentation 3fff::/20 (RFC 9637)
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 <= 1) return true; // discard-only 100::/64 and dummy 100:0:0:1::/64
  if (g0 === 0x5f00) return true; // SRv6 segment identifiers 5f00::/16 (RFC 9602)
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
