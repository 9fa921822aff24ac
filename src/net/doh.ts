/**
 * DNS over HTTPS, JSON flavour (`application/dns-json`, as Cloudflare's public resolver and
 * Google's answer it): the resolver is configuration (DOH_URL; production
 * https://cloudflare-dns.com/dns-query, npm start and the tests a local one, scripts/doh-server.mjs).
 * Used for custom hostname ownership (TXT) and for the addresses a server-side fetch would reach.
 */
import { readCapped } from "../http/read-capped";

export const DNS_TYPES = { A: 1, CNAME: 5, TXT: 16, AAAA: 28 } as const;
export type DnsType = keyof typeof DNS_TYPES;

export interface DnsAnswer {
  name: string;
  type: number;
  data: string;
}

/** What the resolver said. `status` is the DNS RCODE (0 NOERROR, 3 NXDOMAIN). */
export interface DnsResult {
  status: number;
  answers: DnsAnswer[];
}

export class DnsError extends Error {}

const TIMEOUT_MS = 3000;
const MAX_BYTES = 64 * 1024;

export function resolverUrl(env: Env): string {
  return (env as { DOH_URL?: string }).DOH_URL || "https://cloudflare-dns.com/dns-query";
}

/** One query; throws DnsError when the resolver cannot be asked or answers nonsense. */
export async function query(env: Env, name: string, type: DnsType): Promise<DnsResult> {
  const url = new URL(resolverUrl(env));
  url.searchParams.set("name", name);
  url.searchParams.set("type", type);
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: "application/dns-json" }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    throw new DnsError(`DNS resolver unreachable: ${(err as Error).message}`);
  }
  if (!res.ok || !res.body) throw new DnsError(`DNS resolver answered HTTP ${res.status}`);
  const bytes = await readCapped(res.body, MAX_BYTES, () => new DnsError("DNS answer too large"));
  let body: { Status?: unknown; Answer?: unknown };
  try {
    body = JSON.parse(new TextDecoder().decode(bytes)) as typeof body;
  } catch {
    throw new DnsError("DNS resolver answered something that is not JSON");
  }
  if (typeof body.Status !== "number") throw new DnsError("DNS answer without a status");
  const answers = Array.isArray(body.Answer)
    ? body.Answer.filter(
        (a): a is DnsAnswer =>
          typeof a === "object" && a !== null && typeof (a as DnsAnswer).data === "string" && typeof (a as DnsAnswer).type === "number",
      )
    : [];
  return { status: body.Status, answers };
}

/** A TXT record's text: its quoted character-strings joined (`"a" "b"` → `ab`). */
export function txtText(data: string): string {
  const parts = [...data.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, "$1"));
  return parts.length ? parts.join("") : data;
}

/** Every address `name` resolves to (A and AAAA, the ends of any CNAME chain the resolver followed). */
export async function addresses(env: Env, name: string): Promise<string[]> {
  const [a, aaaa] = await Promise.all([query(env, name, "A"), query(env, name, "AAAA")]);
  return [...a.answers, ...aaaa.answers].filter((r) => r.type === DNS_TYPES.A || r.type === DNS_TYPES.AAAA).map((r) => r.data);
}

/** The TXT values published at `name` (empty when there are none). */
export async function txtValues(env: Env, name: string): Promise<string[]> {
  const { answers } = await query(env, name, "TXT");
  return answers.filter((a) => a.type === DNS_TYPES.TXT).map((a) => txtText(a.data));
}
