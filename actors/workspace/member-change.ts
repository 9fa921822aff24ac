/**
 * How a change of members reaches their Account objects. The Account's copy authorises every
 * dashboard request (the front Worker asks only the Account), so it must never allow more than
 * the Workspace's own rows do, even when a push fails:
 *
 * 1. What the change takes away (a lower role, fewer sites, the membership) is pushed first, as
 *    the most both the old and the new membership allow (membership-order.ts). A failed push
 *    saves nothing: 502 with `details.applied: false`, and the Account is told again what the
 *    Workspace still holds (it may have heard after all), by the alarm if need be.
 * 2. The change is saved, with an outbox row for what is still to be given.
 * 3. What it gives is pushed after. A failed push is retried by the alarm; until then the
 *    Account has less than the Workspace (502 `details.applied: true`, when `strict`).
 *
 * Every change and every push runs alone (`serial`), so an older push in flight can never land
 * after a newer one.
 */
import { ApiError } from "../../src/contract/errors";
import type { Membership } from "../../src/contract/principal";
import { type AccountLookup, deliver, enqueue } from "./outbox";
import { meetOf, sameGrant } from "./membership-order";

/** One account's membership before and after a change (null: not a member). */
export interface MemberChange {
  accountId: string;
  before: Membership | null;
  after: Membership | null;
}

export interface MemberPushDeps {
  sql: SqlStorage;
  /** The workspace's storage transaction (transactionSync). */
  transaction: <T>(fn: () => T) => T;
  accounts: AccountLookup;
  /** Brings the alarm forward so owed pushes are retried soon. */
  retrySoon: () => Promise<void>;
}

export class MemberPushes {
  #tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: MemberPushDeps) {}

  /** Runs `fn` when every change and push begun before it has ended, and nothing else meanwhile. */
  serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(fn, fn);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /**
   * Applies `changes` in the order above: `commit` is the Workspace's own write (members, audit,
   * revocations), run in one transaction with the outbox rows. Call it inside `serial`.
   */
  async apply<T>(workspaceId: string, changes: readonly MemberChange[], commit: () => T, strict = true): Promise<T> {
    const { sql } = this.deps;
    const takenAway: MemberChange[] = [];
    for (const change of changes) {
      const most = meetOf(change.before, change.after);
      if (sameGrant(most, change.before)) continue;
      takenAway.push(change);
      if (!(await deliver(sql, enqueue(sql, change.accountId, workspaceId, most), this.deps.accounts))) {
        await this.#restore(workspaceId, takenAway);
        throw new ApiError(
          "bad_gateway",
          "Nothing changed: the member's account could not be reached, so they keep their current role and sites. Try again in a minute.",
          { applied: false },
        );
      }
    }
    const owed: number[] = [];
    let result: T;
    try {
      result = this.deps.transaction(() => {
        const r = commit();
        for (const change of changes) {
          // A change that only took away was delivered whole in the first step.
          const delivered = takenAway.includes(change) && sameGrant(change.after, meetOf(change.before, change.after));
          if (!delivered) owed.push(enqueue(sql, change.accountId, workspaceId, change.after));
        }
        return r;
      });
    } catch (e) {
      await this.#restore(workspaceId, takenAway);
      throw e;
    }
    let late = false;
    for (const seq of owed) if (!(await deliver(sql, seq, this.deps.accounts))) late = true;
    if (late) {
      await this.deps.retrySoon();
      if (strict)
        throw new ApiError(
          "bad_gateway",
          "Saved, but the member's account has not heard yet; it takes effect within a minute (until then they keep less). Retry to confirm.",
          { applied: true },
        );
    }
    return result;
  }

  /** The accounts already told of a change that was not saved hear again what the Workspace holds. */
  async #restore(workspaceId: string, changes: readonly MemberChange[]): Promise<void> {
    let late = false;
    for (const change of changes) {
      const seq = enqueue(this.deps.sql, change.accountId, workspaceId, change.before);
      if (!(await deliver(this.deps.sql, seq, this.deps.accounts))) late = true;
    }
    if (late) await this.deps.retrySoon();
  }
}
