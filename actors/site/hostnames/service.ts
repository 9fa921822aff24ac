/**
 * The custom hostname state machine of a site:
 *   (none) → pending_validation → pending_issuance → active → (deleted)
 * with a replacement: registering another hostname while one is active keeps
 * the active one serving until the new one is active itself, then releases it.
 * Uniqueness across sites is the Hostname object's decision (one per hostname).
 */
import { ApiError } from "../../../src/contract/errors";
import { keyedHex, randomHex } from "../../../src/ids";
import { siteIdSecret } from "../../../src/edge/issued";
import { normalizeHostname } from "../../../src/shared/hostname";
import type { SiteContext } from "../context";
import { cancelJob, scheduleJob } from "../../shared/jobs";
import { backoff } from "../../../src/shared/backoff";
import { type HostnameProvider, missingProviderSettings, ProviderError, providerFor } from "./providers";
import { DnsError, txtValues } from "../../../src/net/doh";
import {
  type HostnameRecord,
  activeHostname,
  deleteHostname,
  insertHostname,
  markOwnerVerified,
  markValidated,
  readHostnames,
  setChallenge,
  updateHostname,
} from "./store";

/** Where the TXT proof lives when the provider does not name its own record. */
export const CHALLENGE_PREFIX = "_oc-challenge.";

/**
 * The TXT record a site must publish for a hostname. Its value is fixed per site and hostname (an
 * HMAC under SITE_ID_SECRET): registering the name again, after a detach or after a stranger took
 * an unproven claim over, gives the owner the value it may already have published, while another
 * site is given another value, so a record left in DNS by an earlier owner proves nothing for it.
 * A deployment without the secret (it creates no sites) falls back to a random value.
 */
function newChallenge(s: SiteContext, hostname: string): { name: string; value: string } {
  const secret = siteIdSecret(s.env);
  const proof = secret ? keyedHex(secret, `hostname-challenge:${s.site()!.id}:${hostname}`, 16) : randomHex(16);
  return { name: `${CHALLENGE_PREFIX}${hostname}`, value: `oc-site-verification=${proof}` };
}

/**
 * Hostnames no site may ever register: the service's own (SERVICE_HOSTNAMES, and the host the
 * registration itself came in on) and the CNAME target with everything under it.
 */
function ownHostname(s: SiteContext, hostname: string, target: string, requestHost: string): boolean {
  const own = (s.env.SERVICE_HOSTNAMES ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase().replace(/:\d+$/, ""))
    .filter(Boolean);
  if (own.includes(hostname) || hostname === requestHost.toLowerCase()) return true;
  const t = target.toLowerCase().replace(/\.$/, "");
  return hostname === t || (t.includes(".") && hostname.endsWith(`.${t}`));
}
import { log, errorText } from "../../../src/log";
import { siteStub } from "../../../src/stubs";

export const HOSTNAME_JOB = "hostname-check";

/**
 * A hostname nobody validates within this time is let go (claim released, provider record
 * removed): otherwise typing someone else's hostname would keep its owner out for good.
 */
export const PENDING_LIMIT_MS = 7 * 24 * 3600_000;

const CHECK_BACKOFF = backoff({ firstMs: 30_000, maxMs: 6 * 3600_000 });
/** Production certificates take minutes to hours: check after 30 s, then back off to every 6 hours. */
export function checkDelayMs(checks: number): number {
  return CHECK_BACKOFF(checks + 1);
}

const toAscii = (unicode: string): string | null => {
  try {
    return new URL(`http://${unicode}/`).hostname;
  } catch {
    return null;
  }
};

const hostnameStub = (s: SiteContext, hostname: string) => s.env.HOSTNAME.get(s.env.HOSTNAME.idFromName(hostname));

/** `port`: the port the dashboard call came in on, for the local provider's validation URL. */
export function providerOf(s: SiteContext, port = ""): HostnameProvider {
  const provider = providerFor(s.env, (h) => readHostnames(s.sql).some((r) => r.hostname === h && r.validated), port);
  if (!provider) {
    const missing = missingProviderSettings(s.env);
    const why = missing.length ? ` (the deployment does not set ${missing.join(", ")})` : "";
    throw new ApiError(
      "not_configured",
      `Custom hostnames are not enabled for this service${why}. Use the reverse-proxy Worker in your own Cloudflare account instead (see proxy/README.md).`,
      missing.length ? { missing } : undefined,
    );
  }
  return provider;
}

export function presentHostname(h: HostnameRecord, cnameTarget: string) {
  return {
    hostname: h.hostname,
    cnameTarget,
    sslStatus: h.sslStatus,
    ...(h.challenge.value
      ? { ownershipVerification: { type: "txt" as const, name: h.challenge.name, value: h.challenge.value, verified: h.ownerVerified } }
      : {}),
    ...(h.sslStatus === "active" ? {} : { missing: h.missing }),
    createdAt: h.createdAt,
    updatedAt: h.updatedAt,
  };
}

/** The hostname the dashboard shows: the newest record (a pending replacement, else the active one). */
export function currentRecords(s: SiteContext): { current: HostnameRecord | null; active: HostnameRecord | null } {
  const all = readHostnames(s.sql);
  return { current: all[all.length - 1] ?? null, active: all.find((h) => h.sslStatus === "active") ?? null };
}

// Every change to a site's hostnames awaits other objects (the Hostname object, the
// provider's API), and the site object takes other requests meanwhile. One chain per
// site object runs them one at a time, so no step acts on a state another has changed.
const chains = new WeakMap<SiteContext, Promise<unknown>>();
function serially<T>(s: SiteContext, step: () => Promise<T>): Promise<T> {
  const run = (chains.get(s) ?? Promise.resolve()).then(step, step);
  chains.set(
    s,
    run.catch(() => undefined),
  );
  return run;
}

/** `requestHost`: the host the registration came in on (the service's own, never registrable). */
export function registerHostname(
  s: SiteContext,
  input: string,
  port = "",
  requestHost = "",
): Promise<{ record: HostnameRecord; created: boolean }> {
  return serially(s, () => register(s, input, port, requestHost));
}

async function register(
  s: SiteContext,
  input: string,
  port: string,
  requestHost: string,
): Promise<{ record: HostnameRecord; created: boolean }> {
  const provider = providerOf(s, port);
  const checked = normalizeHostname(input, toAscii);
  if (!checked.ok) throw new ApiError("bad_request", `hostname ${checked.reason}.`, { path: "hostname" });
  const hostname = checked.hostname;
  if (ownHostname(s, hostname, provider.cnameTarget, requestHost)) {
    throw new ApiError("bad_request", `hostname ${hostname} belongs to this service and cannot be connected to a site.`, {
      path: "hostname",
    });
  }
  const existing = readHostnames(s.sql);
  const same = existing.find((h) => h.hostname === hostname);
  // Registering the same hostname again checks it now (the DNS record may just have been added).
  if (same) {
    if (same.sslStatus !== "active") await check(s, hostname, true);
    return { record: readHostnames(s.sql).find((h) => h.hostname === hostname) ?? same, created: false };
  }

  const siteId = s.site()!.id;
  const claim = await hostnameStub(s, hostname).claim(hostname, siteId);
  if (!claim.taken) throw new ApiError("conflict", `${hostname} is already connected to another site.`, { hostname });
  // The name was held by a site that never proved control of it: that site lets go (its record
  // and its certificate provider's record go, so this site's provider record can be created).
  if (claim.displaced) {
    log("hostname_claim_taken_over", { siteId, hostname, from: claim.displaced });
    await siteStub(s.env, claim.displaced).releaseUnprovenHostname(hostname);
  }
  const token = randomHex(16);
  let state;
  try {
    state = await provider.create(hostname, token);
  } catch (err) {
    await hostnameStub(s, hostname).release(siteId);
    if (err instanceof ProviderError && err.code === 1406)
      throw new ApiError("conflict", `${hostname} is already registered with the certificate provider.`);
    log("hostname_create_failed", { siteId, hostname, error: errorText(err) });
    throw new ApiError("bad_gateway", "The certificate provider did not accept the hostname; try again shortly.");
  }
  // An earlier replacement that never became active gives way to this one, now that this one is accepted.
  for (const h of existing.filter((x) => x.sslStatus !== "active")) await detach(s, provider, h);
  // A value only this registration was given: a record left in DNS by an earlier owner proves nothing.
  const challenge = state.ownership ?? newChallenge(s, hostname);
  insertHostname(s.sql, {
    hostname,
    provider: provider.name,
    providerId: state.providerId,
    sslStatus: state.sslStatus === "active" ? "pending_validation" : state.sslStatus,
    missing: withProof(state.missing, challenge, false),
    validationToken: token,
    challenge,
  });
  // Even a provider that calls the hostname active at once waits for the proof.
  scheduleJob(s.storage, HOSTNAME_JOB, hostname, Date.now() + checkDelayMs(0));
  // Our value is fixed per site and hostname, so the owner may have published it already (before
  // a stranger took the unproven claim over, say): look it up now, so that the proof ends the race
  // at once instead of at the alarm's first check, which a stranger re-registering kept putting off.
  if (!state.ownership) {
    try {
      await check(s, hostname, true);
    } catch (err) {
      log("hostname_first_check_failed", { siteId, hostname, error: errorText(err) });
    }
  }
  return { record: readHostnames(s.sql).find((h) => h.hostname === hostname)!, created: true };
}

/** The provider's list of what is missing, with the TXT proof first while it has not been seen. */
function withProof(missing: string[], challenge: { name: string; value: string }, verified: boolean): string[] {
  if (verified) return missing;
  return [`a TXT record ${challenge.name} with the value ${challenge.value} (proves that you control this hostname's DNS)`, ...missing];
}

/**
 * Whether this registration proved control of the hostname's DNS: its TXT record, looked up
 * through DNS over HTTPS (DOH_URL). Remembered once seen; a resolver failure is "not yet".
 */
async function ownerProven(s: SiteContext, record: HostnameRecord): Promise<boolean> {
  if (record.ownerVerified) return true;
  if (!record.challenge.value) return false;
  try {
    const values = await txtValues(s.env, record.challenge.name);
    if (!values.includes(record.challenge.value)) return false;
  } catch (err) {
    if (!(err instanceof DnsError)) throw err;
    log("hostname_txt_lookup_failed", { siteId: s.site()?.id, hostname: record.hostname, error: errorText(err) });
    return false;
  }
  markOwnerVerified(s.sql, record.hostname);
  return true;
}

/** One status check (the alarm's job); returns when to check again, or nothing once active or gone. */
export function checkHostname(s: SiteContext, hostname: string): Promise<{ next: number } | void> {
  return serially(s, () => check(s, hostname));
}

async function check(s: SiteContext, hostname: string, asked = false): Promise<{ next: number } | void> {
  let record = readHostnames(s.sql).find((h) => h.hostname === hostname);
  if (!record || record.sslStatus === "active") return;
  const provider = providerOf(s);
  if (!asked && Date.now() - Date.parse(record.createdAt) > PENDING_LIMIT_MS) return void (await detach(s, provider, record));
  const state = await provider.status(record.providerId, hostname, record.validationToken);
  if (!record.challenge.value) {
    setChallenge(s.sql, hostname, state.ownership ?? newChallenge(s, hostname));
    record = readHostnames(s.sql).find((h) => h.hostname === hostname)!;
  }
  const proven = await ownerProven(s, record);
  // The proof is told to the Hostname object, after which nobody can take the name over; a site
  // whose unproven claim was taken over meanwhile lets its record go.
  if (proven && !(await hostnameStub(s, hostname).prove(s.site()!.id))) return void (await detach(s, provider, record));
  updateHostname(s.sql, hostname, {
    sslStatus: state.sslStatus === "active" ? record.sslStatus : state.sslStatus,
    missing: withProof(state.missing, record.challenge, proven),
    checks: asked ? record.checks : record.checks + 1,
  });
  if (state.sslStatus === "active" && proven) {
    await activate(s, provider, hostname);
    if (asked) cancelJob(s.storage, HOSTNAME_JOB, hostname);
    return;
  }
  return { next: Date.now() + checkDelayMs(record.checks + 1) };
}

/** A request for the hostname with its token reached this service (the local provider's proof). */
export function validateHostname(s: SiteContext, hostname: string, token: string): Promise<boolean> {
  return serially(s, () => validate(s, hostname, token));
}

async function validate(s: SiteContext, hostname: string, token: string): Promise<boolean> {
  if (!markValidated(s.sql, hostname, token)) return false;
  const record = readHostnames(s.sql).find((h) => h.hostname === hostname)!;
  // Reaching this service proves the CNAME; the TXT record must prove the rest (check() does both).
  if (record.sslStatus !== "active") await check(s, hostname, true);
  return true;
}

async function activate(s: SiteContext, provider: HostnameProvider, hostname: string): Promise<void> {
  // The Hostname object is the judge: without our claim there, this hostname is not ours to serve.
  const record = readHostnames(s.sql).find((h) => h.hostname === hostname);
  if (!(await hostnameStub(s, hostname).activate(s.site()!.id))) {
    // Also off the provider's books: a certificate nobody serves would stay there.
    if (record) await detach(s, provider, record);
    return;
  }
  const replaced = readHostnames(s.sql).filter((h) => h.hostname !== hostname && h.sslStatus === "active");
  updateHostname(s.sql, hostname, { sslStatus: "active", missing: [] });
  cancelJob(s.storage, HOSTNAME_JOB, hostname);
  // The replaced hostname stops here, now that the new one serves.
  for (const old of replaced) await detach(s, provider, old);
  s.contentChanged();
}

export function removeHostnames(s: SiteContext): Promise<string[]> {
  return serially(s, () => removeAll(s));
}

async function removeAll(s: SiteContext): Promise<string[]> {
  const provider = providerOf(s);
  const all = readHostnames(s.sql);
  for (const h of all) await detach(s, provider, h);
  if (all.length) s.contentChanged();
  return all.map((h) => h.hostname);
}

async function detach(s: SiteContext, provider: HostnameProvider, h: HostnameRecord): Promise<void> {
  deleteHostname(s.sql, h.hostname);
  cancelJob(s.storage, HOSTNAME_JOB, h.hostname);
  await hostnameStub(s, h.hostname).release(s.site()!.id);
  await provider
    .remove(h.providerId)
    .catch((err) => log("hostname_remove_failed", { siteId: s.site()?.id, hostname: h.hostname, error: errorText(err) }));
}

/**
 * Another site took over this site's claim on `hostname` before this site proved control of it
 * (see Hostname.claim): the record, its check and its provider record go.
 */
export function releaseUnprovenHostname(s: SiteContext, hostname: string): Promise<void> {
  return serially(s, async () => {
    const record = readHostnames(s.sql).find((h) => h.hostname === hostname);
    if (!record || record.sslStatus === "active") return;
    await detach(s, providerOf(s), record);
    log("hostname_taken_over", { siteId: s.site()?.id, hostname });
  });
}

export { activeHostname };
