import { DurableObject } from "cloudflare:workers";
import { type HostnameRoute } from "../src/contract/hostnames";

interface Claim extends HostnameRoute {
  hostname: string;
  /** The holder's TXT proof of control was seen: from then on nobody else may take the name. */
  proven?: boolean;
  updatedAt: string;
}

/** `displaced`: the site whose pending, unproven claim this one replaced (it must let go). */
export type ClaimResult = { taken: false } | { taken: true; displaced: string | null };

/**
 * One object per hostname (`idFromName(hostname)`): the single place that
 * decides which site a hostname belongs to, so two sites can never hold the
 * same hostname, without any global lock. It also answers the front Worker's
 * Host → site lookups. Its one record lives in the synchronous key-value
 * storage, so a lookup for a hostname nobody claimed writes nothing.
 */
export class Hostname extends DurableObject<Env> {
  /**
   * Takes the hostname for `siteId`. Idempotent for the owner. Another site's claim blocks it
   * only once that site proved control of the name (TXT seen, or active): an unproven claim is
   * just someone typing the name, and a stranger who typed it first must not lock its real owner
   * out. Such a claim is taken over and its site is named, so the caller can detach it there.
   */
  claim(hostname: string, siteId: string): ClaimResult {
    const owner = this.#claim();
    if (owner?.siteId === siteId) return { taken: true, displaced: null };
    if (owner && (owner.active || owner.proven)) return { taken: false };
    this.#write({ hostname, siteId, active: false, updatedAt: new Date().toISOString() });
    return { taken: true, displaced: owner?.siteId ?? null };
  }

  /** The holder's TXT proof was seen; false when `siteId` no longer holds the name (taken over). */
  prove(siteId: string): boolean {
    const owner = this.#claim();
    if (!owner || owner.siteId !== siteId) return false;
    if (!owner.proven) this.#write({ ...owner, proven: true, updatedAt: new Date().toISOString() });
    return true;
  }

  activate(siteId: string): boolean {
    const owner = this.#claim();
    if (!owner || owner.siteId !== siteId) return false;
    this.#write({ ...owner, active: true, updatedAt: new Date().toISOString() });
    return true;
  }

  release(siteId: string): void {
    if (this.#claim()?.siteId === siteId) this.ctx.storage.kv.delete("claim");
  }

  route(): HostnameRoute | null {
    const c = this.#claim();
    return c ? { siteId: c.siteId, active: c.active } : null;
  }

  #claim(): Claim | null {
    return this.ctx.storage.kv.get<Claim>("claim") ?? null;
  }

  #write(claim: Claim): void {
    this.ctx.storage.kv.put("claim", claim);
  }
}
