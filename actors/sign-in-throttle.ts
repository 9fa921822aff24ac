import { DurableObject } from "cloudflare:workers";

/** Wrong keys a client may send before it has to wait. */
export const FREE_ATTEMPTS = 3;
const MAX_WAIT_MS = 15 * 60 * 1000;
// A client that has not failed for a day starts over.
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;

interface State {
  failures: number;
  lastFailureAt: number;
}

/** After the free attempts, each wrong key doubles the wait: 2 s, 4 s, 8 s … up to 15 minutes. */
export function waitAfter(failures: number): number {
  if (failures < FREE_ATTEMPTS) return 0;
  return Math.min(MAX_WAIT_MS, 1000 * 2 ** (failures - FREE_ATTEMPTS + 1));
}

/**
 * Wrong sign-in keys of one client (`idFromName(client address)`): a growing
 * delay, so nobody can guess keys or the operator token at speed. Only a count
 * and a time are stored; nothing else about the client.
 */
export class SignInThrottle extends DurableObject<Env> {
  async #state(now: number): Promise<State> {
    const s = await this.ctx.storage.get<State>("state");
    if (!s || now - s.lastFailureAt > FORGET_AFTER_MS) return { failures: 0, lastFailureAt: 0 };
    return s;
  }

  /** Milliseconds the client must still wait before its next attempt is even checked. */
  async waitMs(now = Date.now()): Promise<number> {
    const s = await this.#state(now);
    return Math.max(0, s.lastFailureAt + waitAfter(s.failures) - now);
  }

  /** Records a wrong key; returns the wait before the next attempt. */
  async failed(now = Date.now()): Promise<number> {
    const s = await this.#state(now);
    const next = { failures: s.failures + 1, lastFailureAt: now };
    await this.ctx.storage.put("state", next);
    return waitAfter(next.failures);
  }

  async succeeded(): Promise<void> {
    await this.ctx.storage.delete("state");
  }
}
