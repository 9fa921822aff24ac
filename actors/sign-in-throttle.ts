import { DurableObject } from "cloudflare:workers";
import { SIGN_IN_POLICY } from "../src/contract/limits";

/** Wrong keys a client may send for one target before it has to wait. */
export const FREE_ATTEMPTS = SIGN_IN_POLICY.quota;
const MAX_WAIT_MS = 15 * 60 * 1000;
/**
 * A client that has not failed for a day starts over. SIGN_IN_FORGET_SECONDS shortens that for
 * the on-disk test (test/e2e/stranger-storage-disk.test.ts), which waits for the forgetting.
 */
function forgetAfterMs(env: Env): number {
  const seconds = Number((env as { SIGN_IN_FORGET_SECONDS?: string }).SIGN_IN_FORGET_SECONDS);
  return (Number.isFinite(seconds) && seconds > 0 ? seconds : SIGN_IN_POLICY.window) * 1000;
}

interface State {
  failures: number;
  lastFailureAt: number;
}

/** A quota's uses in the window that began at `since` (ms). */
interface Quota {
  used: number;
  since: number;
}

/** After the free attempts, each wrong key doubles the wait: 2 s, 4 s, 8 s … up to 15 minutes. */
export function waitAfter(failures: number, free: number = FREE_ATTEMPTS): number {
  if (failures < free) return 0;
  return Math.min(MAX_WAIT_MS, 1000 * 2 ** Math.min(20, failures - free + 1));
}

/**
 * Sign-in attempts of one client against one target (`idFromName("<client>|<target>")`, the
 * target a site id or "operator"): a growing delay, so nobody can guess keys at speed, and one
 * person guessing one site's key slows nobody else's sign-in. Only a count and a time are stored.
 * The same objects keep the daily quotas of invitation mails (`take`), under keys of their own.
 */
export class SignInThrottle extends DurableObject<Env> {
  async #state(now: number): Promise<State> {
    const s = await this.ctx.storage.get<State>("state");
    if (!s || now - s.lastFailureAt > forgetAfterMs(this.env)) return { failures: 0, lastFailureAt: 0 };
    return s;
  }

  /**
   * Starts an attempt: refused with the time left while the client must wait; otherwise it is
   * counted as a failure at once (undone by `succeeded`). Checking and counting in one call of
   * this single-threaded object means a burst of parallel attempts cannot all pass one check.
   */
  async attempt(now = Date.now(), free: number = FREE_ATTEMPTS): Promise<{ allowed: boolean; waitMs: number; failures: number }> {
    const s = await this.#state(now);
    const left = s.lastFailureAt + waitAfter(s.failures, free) - now;
    if (left > 0) return { allowed: false, waitMs: left, failures: s.failures };
    const next = { failures: s.failures + 1, lastFailureAt: now };
    await this.ctx.storage.put("state", next);
    // A stranger's guesses must not stay on disk for good: once the count is forgotten, it goes.
    await this.ctx.storage.setAlarm(now + forgetAfterMs(this.env));
    return { allowed: true, waitMs: waitAfter(next.failures, free), failures: next.failures };
  }

  /**
   * A right password on a key shared by many attempts (an account across clients, a client across
   * accounts): the attempt `attempt` counted is taken back, the others' failures stay.
   */
  async forgive(): Promise<void> {
    const s = await this.ctx.storage.get<State>("state");
    if (!s) return;
    if (s.failures <= 1) return this.succeeded();
    await this.ctx.storage.put("state", { ...s, failures: s.failures - 1 });
  }

  /**
   * A fixed quota instead of a growing wait (invitation mails, key `invite-by:<account>` or
   * `invite-to:<address's account id>`): at most `limit` uses in the `windowMs` that began with the
   * first; checked and counted in one call, so parallel requests cannot all pass one check. The
   * object deletes itself when the window ends (the alarm below finds no sign-in state).
   */
  async take(limit: number, windowMs: number, now = Date.now()): Promise<{ allowed: boolean; retryAfterMs: number }> {
    const q = await this.ctx.storage.get<Quota>("quota");
    const current = q && now - q.since < windowMs ? q : { used: 0, since: now };
    if (current.used >= limit) return { allowed: false, retryAfterMs: current.since + windowMs - now };
    await this.ctx.storage.put("quota", { used: current.used + 1, since: current.since });
    if (current.used === 0) await this.ctx.storage.setAlarm(current.since + windowMs);
    return { allowed: true, retryAfterMs: 0 };
  }

  /** The last `take` was not used after all (a later check refused the mail): it does not count. */
  async giveBack(): Promise<void> {
    const q = await this.ctx.storage.get<Quota>("quota");
    if (q && q.used > 0) await this.ctx.storage.put("quota", { ...q, used: q.used - 1 });
  }

  /** The right key: this client's count for this target starts over (nothing is kept). */
  async succeeded(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  /**
   * Set the forget window after the last failure (each failure moves it), so when it fires the
   * count is forgotten anyway: the object's storage is deleted entirely.
   */
  override async alarm(): Promise<void> {
    const s = await this.ctx.storage.get<State>("state");
    const forget = forgetAfterMs(this.env);
    if (s && Date.now() - s.lastFailureAt < forget) return void (await this.ctx.storage.setAlarm(s.lastFailureAt + forget));
    await this.ctx.storage.deleteAll();
  }
}
