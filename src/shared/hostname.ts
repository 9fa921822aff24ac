/**
 * Custom hostnames as customers type them: lower-cased, IDNs in punycode, no
 * scheme, path, port or IP address, each label 1-63 characters of letters,
 * digits and inner hyphens, at most 253 characters, and at least one dot.
 */
export type HostnameCheck = { ok: true; hostname: string } | { ok: false; reason: string };

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function normalizeHostname(input: string, toAscii: (unicode: string) => string | null): HostnameCheck {
  const raw = input.trim().replace(/\.$/, "");
  if (raw === "") return { ok: false, reason: "is empty" };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw))
    return { ok: false, reason: "must not include a scheme (write blog.example.com, not https://…)" };
  if (/[/?#@\s]/.test(raw)) return { ok: false, reason: "must be a bare hostname, without path, query, user or spaces" };
  if (/:\d*$/.test(raw) && !raw.includes("[")) return { ok: false, reason: "must not include a port" };
  if (/^\[.*\]$/.test(raw) || /^[\d.]+$/.test(raw) || raw.includes(":")) return { ok: false, reason: "must be a name, not an IP address" };
  const ascii = toAscii(raw.toLowerCase());
  if (!ascii) return { ok: false, reason: "is not a valid hostname" };
  const hostname = ascii.toLowerCase();
  if (hostname.length > 253) return { ok: false, reason: "is longer than 253 characters" };
  const labels = hostname.split(".");
  if (labels.length < 2) return { ok: false, reason: "needs a domain (e.g. blog.example.com)" };
  const bad = labels.find((l) => !LABEL.test(l));
  if (bad !== undefined) return { ok: false, reason: `has an invalid label "${bad}" (1-63 letters, digits or inner hyphens)` };
  if (/^\d+$/.test(labels[labels.length - 1] as string)) return { ok: false, reason: "must be a name, not an IP address" };
  return { ok: true, hostname };
}
