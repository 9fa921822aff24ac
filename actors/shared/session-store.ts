import { sha256Hex } from "../../src/ids";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, SESSION_TOUCH_MS, sessionExpiry, type SessionInfo } from "../../src/identity/session-policy";

/** What an owner sees of each of their sessions in an "active sessions" list. */
export interface SessionMeta {
  publicId: string;
  userAgent: string | null;
  ip: string | null;
  country: string | null;
}

/**
 * Sessions in a Durable Object's SQLite table `sessions(id_hash, created_at, last_seen_at)`.
 * The Site object keeps its owner's sessions, the OperatorSessions object the operator's.
 */
export class SessionStore {
  constructor(private readonly sql: SqlStorage) {}

  /**
   * `meta` fills the extra columns of a table that lists its sessions to their owner (the Account
   * object's `sessions` has public_id, user_agent, ip, country); other tables have none.
   */
  async create(id: string, now = Date.now(), meta?: SessionMeta): Promise<SessionInfo> {
    const hash = await sha256Hex(id);
    // Expired rows go on every sign-in, so the table holds live sessions only.
    this.sql.exec("DELETE FROM sessions WHERE last_seen_at <= ? OR created_at <= ?", now - SESSION_IDLE_MS, now - SESSION_ABSOLUTE_MS);
    if (meta) {
      this.sql.exec(
        "INSERT INTO sessions (id_hash, created_at, last_seen_at, public_id, user_agent, ip, country) VALUES (?, ?, ?, ?, ?, ?, ?)",
        hash,
        now,
        now,
        meta.publicId,
        meta.userAgent,
        meta.ip,
        meta.country,
      );
    } else this.sql.exec("INSERT INTO sessions (id_hash, created_at, last_seen_at) VALUES (?, ?, ?)", hash, now, now);
    return info({ createdAt: now, lastSeenAt: now });
  }

  /** The live session with this id, touched; null when unknown or expired (an expired one is deleted). */
  async verify(id: string, now = Date.now()): Promise<SessionInfo | null> {
    const hash = await sha256Hex(id);
    const row = this.sql
      .exec<{ created_at: number; last_seen_at: number }>("SELECT created_at, last_seen_at FROM sessions WHERE id_hash = ?", hash)
      .toArray()[0];
    if (!row) return null;
    const times = { createdAt: row.created_at, lastSeenAt: row.last_seen_at };
    if (sessionExpiry(times) <= now) {
      this.sql.exec("DELETE FROM sessions WHERE id_hash = ?", hash);
      return null;
    }
    if (now - times.lastSeenAt >= SESSION_TOUCH_MS) {
      this.sql.exec("UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?", now, hash);
      times.lastSeenAt = now;
    }
    return info(times);
  }

  async end(id: string): Promise<void> {
    this.sql.exec("DELETE FROM sessions WHERE id_hash = ?", await sha256Hex(id));
  }

  /** Every session but `keepId`'s (a password change or reset signs out everywhere else). */
  async endAllBut(keepId: string | null): Promise<void> {
    if (keepId === null) return this.endAll();
    this.sql.exec("DELETE FROM sessions WHERE id_hash <> ?", await sha256Hex(keepId));
  }

  endAll(): void {
    this.sql.exec("DELETE FROM sessions");
  }
}

export function info(t: { createdAt: number; lastSeenAt: number }): SessionInfo {
  return { createdAt: new Date(t.createdAt).toISOString(), expiresAt: new Date(sessionExpiry(t)).toISOString() };
}
