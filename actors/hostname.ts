import { DurableObject } from "cloudflare:workers";
import { type HostnameRoute } from "../src/contract/hostnames";

interface Claim extends HostnameRoute {
  hostname: string;
  updatedAt: string;
}

/**
 * One object per hostname (`idFromName(hostname)`): the single place that
 * decides which site a hostname belongs to, so two sites can never hold the
 * same hostname, without any global lock. It also answers the front Worker's
 * Host → site lookups. Its one record lives in the synchronous key-value
 * storage, so a lookup for a hostname nobody claimed writes nothing.
 */
export class Hostname extends DurableObject<Env> {
  /** Takes the hostname for `siteId`; false when another site holds it. Idempotent for the owner. */
  claim(hostname: string, siteId: string): boolean {
    const owner = this.#claim();
    if (owner && owner.siteId !== siteId) return false;
    if (!owner) this.#write({ hostname, siteId, active: false, updatedAt: new Date().toISOString() });
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
