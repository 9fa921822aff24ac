/**
 * Membership pushes to Account objects (ARCHITECTURE.md "Who belongs to a workspace"). Each push is a row here,
 * delivered at once and deleted when the Account took it; one that failed stays and the workspace's
 * alarm retries it, so the Account's copy (which authorises every request) always catches up. In
 * which order a change is pushed and saved: member-change.ts. Owner of table `outbox`.
 */
import type { Membership } from "../../src/contract/principal";
import { backoff } from "../../src/shared/backoff";

// 10 s after the first failure, then doubling, at most hourly.
const PUSH_BACKOFF = backoff({ firstMs: 10_000, maxMs: 3_600_000 });

/** What an Account object offers the workspace: `setMembership` (actors/account.ts). */
export interface MembershipHolder {
  setMembership(workspaceId: string, membership: Membership | null): Promise<{ ok: boolean; reason?: string } | void>;
}

type Row = { seq: number; account_id: string; payload: string; attempts: number; next_at: number };
interface Payload {
  workspaceId: string;
  membership: Membership | null;
}

export function enqueue(sql: SqlStorage, accountId: string, workspaceId: string, membership: Membership | null): number {
  const payload: Payload = { workspaceId, membership };
  // A newer change supersedes any undelivered one for the same account.
  sql.exec("DELETE FROM outbox WHERE account_id = ?", accountId);
  return sql
    .exec<{ seq: number }>(
      "INSERT INTO outbox (account_id, payload, attempts, next_at) VALUES (?, ?, 0, ?) RETURNING seq",
      accountId,
      JSON.stringify(payload),
      Date.now(),
    )
    .one().seq;
}

/** The Account object of an account id, when this deployment has accounts. */
export type AccountLookup = (accountId: string) => MembershipHolder | null;

/** Delivers one row; true when delivered (and removed). */
export async function deliver(sql: SqlStorage, seq: number, account: AccountLookup): Promise<boolean> {
  const row = sql.exec<Row>("SELECT * FROM outbox WHERE seq = ?", seq).toArray()[0];
  if (!row) return true;
  const holder = account(row.account_id);
  const p = JSON.parse(row.payload) as Payload;
  try {
    if (!holder) throw new Error("accounts are not configured (no ACCOUNT binding)");
    const answer = await holder.setMembership(p.workspaceId, p.membership);
    if (answer && !answer.ok) throw new Error(`the account refused: ${answer.reason ?? "unknown"}`);
    sql.exec("DELETE FROM outbox WHERE seq = ?", seq);
    return true;
  } catch {
    const attempts = row.attempts + 1;
    sql.exec("UPDATE outbox SET attempts = ?, next_at = ? WHERE seq = ?", attempts, Date.now() + PUSH_BACKOFF(attempts), seq);
    return false;
  }
}

/** Every due row (the alarm); returns the next time something is due, or null. */
export async function drain(sql: SqlStorage, account: AccountLookup, now = Date.now()): Promise<number | null> {
  const due = sql.exec<{ seq: number }>("SELECT seq FROM outbox WHERE next_at <= ? ORDER BY seq LIMIT 50", now).toArray();
  for (const { seq } of due) await deliver(sql, seq, account);
  return sql.exec<{ t: number | null }>("SELECT min(next_at) AS t FROM outbox").one().t;
}
