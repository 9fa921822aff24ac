import { DurableObject } from "cloudflare:workers";
import { SQLSchemaMigrations } from "durable-utils/sql-migrations";
import { sha256Hex } from "../src/ids";
import { DUMMY_PHC, hashPassword, kdfOf, PASSWORD_PREP, verifyPassword } from "../src/identity/kdf";
import { newAccountSessionId, newResetToken, newSessionHandle } from "../src/identity/tokens";
import type {
  AccountPublic,
  AddPasskeyResult,
  ClientMeta,
  ListedSession,
  PasskeyView,
  RemovePasskeyResult,
  ResetDone,
  SetMembershipResult,
  StartedSession,
  VerifiedSession,
} from "../src/identity/account-types";
import { type Membership, isRole, MAX_MEMBERSHIPS } from "../src/contract/principal";
import { SessionStore, info } from "./shared/session-store";
import { sessionExpiry } from "../src/identity/session-policy";
import { ACCOUNT_MIGRATIONS } from "./account/migrations";
import { MIGRATION_MARKER } from "./shared/migration-marker";
import { clientHash } from "./account/clients";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { ExpectedPasskey } from "../src/identity/passkeys";

/** Passkey code (@simplewebauthn/server, 300 KB) is evaluated on first use, not when an isolate starts. */
const passkeyCode = () => import("./account/passkeys");

/** Key-value entry: when this address asked for no more invitation mails. */
const REFUSES_INVITATIONS = "refuses_invitations";

/** A password reset link works once, for this long. */
export const RESET_TTL_MS = 60 * 60 * 1000;

type AccountRow = {
  id: string;
  email: string;
  name: string;
  created_at: number;
  password_hash: string | null;
};

/**
 * One person (`idFromName(accountId)`, the id derived from the normalised email: src/identity/email.ts):
 * credentials, passkeys, sessions, and a copy of their memberships that each Workspace pushes
 * (`setMembership`) before it acknowledges a change, so `verifySession` answers a dashboard
 * request's "who, and in which workspaces" in one hop.
 *
 * Strangers create no storage: an object whose account was never created reads nothing,
 * writes nothing, and still runs one KDF on a sign-in (enumeration resistance, docs/accounts.md).
 */
export class Account extends DurableObject<Env> {
  #store = new SessionStore(this.ctx.storage.sql);
  #ready: Promise<boolean>;
  /** Memberships in memory, reloaded after each push; a dashboard request reads them here. */
  #memberships: Membership[] | null = null;
  /** KDF runs since this object started (tests check that unknown addresses cost the same). */
  #kdfRuns = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Migrations run only where an account exists; an empty object stays empty.
    this.#ready = ctx.blockConcurrencyWhile(async () => {
      const created = (await ctx.storage.get<number>(MIGRATION_MARKER)) !== undefined;
      if (created) await this.#migrate();
      return created;
    });
  }

  async #migrate(): Promise<void> {
    await new SQLSchemaMigrations({ doStorage: this.ctx.storage, migrations: ACCOUNT_MIGRATIONS }).runAll();
  }

  async #row(): Promise<AccountRow | null> {
    if (!(await this.#ready)) return null;
    return this.ctx.storage.sql.exec<AccountRow>("SELECT id, email, name, created_at, password_hash FROM account").toArray()[0] ?? null;
  }

  async #verify(phc: string | null, password: string): Promise<boolean> {
    this.#kdfRuns++;
    const kdf = kdfOf(this.env);
    const { ok, needsRehash } = await verifyPassword(phc ?? DUMMY_PHC[kdf], password, kdf);
    if (phc !== null && ok && needsRehash) {
      this.ctx.storage.sql.exec(
        "UPDATE account SET password_hash = ?, password_prep = ?",
        await hashPassword(password, kdf),
        PASSWORD_PREP,
      );
    }
    return phc !== null && ok;
  }

  async exists(): Promise<boolean> {
    return (await this.#row()) !== null;
  }

  /**
   * Creates the account after its address was proven (the signed sign-up link), with its first
   * session. Null when the address already has an account (the link was used twice).
   */
  async create(
    input: { id: string; email: string; name: string; password: string; client: ClientMeta },
    now = Date.now(),
  ): Promise<StartedSession | null> {
    if (await this.exists()) return null;
    this.#kdfRuns++;
    const hash = await hashPassword(input.password, kdfOf(this.env));
    return this.#insert(input, hash, null, now);
  }

  /**
   * The same with a passkey instead of a password (verified before anything is stored): "invalid"
   * when it does not verify. The account has no password until a reset sets one.
   */
  async createWithPasskey(
    input: {
      id: string;
      email: string;
      name: string;
      client: ClientMeta;
      passkey: RegistrationResponseJSON;
      passkeyName: string;
      expected: ExpectedPasskey;
    },
    now = Date.now(),
  ): Promise<StartedSession | "invalid" | null> {
    if (await this.exists()) return null;
    const { storePasskey, verifyRegistration } = await passkeyCode();
    const credential = await verifyRegistration(input.passkey, input.expected);
    if (!credential) return "invalid";
    return this.#insert(input, null, (sql) => storePasskey(sql, credential, input.expected.rpID, input.passkeyName, now), now);
  }

  async #insert(
    input: { id: string; email: string; name: string; client: ClientMeta },
    hash: string | null,
    more: ((sql: SqlStorage) => void) | null,
    now: number,
  ): Promise<StartedSession | null> {
    // The same link used twice at once: only the first gets past this point.
    if (await this.exists()) return null;
    await this.#migrate();
    this.#ready = Promise.resolve(true);
    const sql = this.ctx.storage.sql;
    const known = await clientHash(input.client);
    this.ctx.storage.transactionSync(() => {
      sql.exec(
        "INSERT INTO account (id, email, name, created_at, password_hash, password_prep, password_changed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        input.id,
        input.email,
        input.name,
        now,
        hash,
        PASSWORD_PREP,
        hash === null ? null : now,
      );
      more?.(sql);
      sql.exec("INSERT OR IGNORE INTO known_clients (hash, first_seen) VALUES (?, ?)", known, now);
    });
    return { ...(await this.#startSession(input.client, now)), newClient: false };
  }

  /**
   * Email and password. Exactly one KDF runs whatever happens (a dummy hash when there is no
   * account or no password), and the answer for a wrong password and for no account is the same.
   */
  async signIn(password: string, client: ClientMeta, now = Date.now()): Promise<StartedSession | null> {
    const row = await this.#row();
    const ok = await this.#verify(row?.password_hash ?? null, password);
    if (!row || !ok) return null;
    const newClient = await this.#noteClient(client, now);
    return { ...(await this.#startSession(client, now)), newClient };
  }

  async #startSession(client: ClientMeta, now: number): Promise<Omit<StartedSession, "newClient">> {
    const row = (await this.#row())!;
    const id = newAccountSessionId(row.id);
    const session = await this.#store.create(id, now, { publicId: newSessionHandle(), ...client });
    return { id, session, account: publicOf(row) };
  }

  /** Whether this browser family and country are new to the account (recorded now if so). */
  async #noteClient(client: ClientMeta, now: number): Promise<boolean> {
    const hash = await clientHash(client);
    const seen = this.ctx.storage.sql.exec("SELECT 1 FROM known_clients WHERE hash = ?", hash).toArray().length > 0;
    if (!seen) this.ctx.storage.sql.exec("INSERT INTO known_clients (hash, first_seen) VALUES (?, ?)", hash, now);
    return !seen;
  }

  /** The session, the account and its memberships: everything a dashboard request needs to know. */
  async verifySession(id: string, now = Date.now()): Promise<VerifiedSession | null> {
    const row = await this.#row();
    if (!row) return null;
    const session = await this.#store.verify(id, now);
    if (!session) return null;
    const publicId =
      this.ctx.storage.sql
        .exec<{ public_id: string | null }>("SELECT public_id FROM sessions WHERE id_hash = ?", await sha256Hex(id))
        .toArray()[0]?.public_id ?? null;
    return { session: { ...session, publicId }, account: publicOf(row), memberships: this.#loadMemberships() };
  }

  async endSession(id: string): Promise<void> {
    if (!(await this.#row())) return;
    await this.#store.end(id);
  }

  /** The live sessions, newest first; `currentId`'s is marked. */
  async listSessions(currentId: string, now = Date.now()): Promise<ListedSession[]> {
    if (!(await this.#row())) return [];
    const current = await sha256Hex(currentId);
    const rows = this.ctx.storage.sql
      .exec<{
        id_hash: string;
        public_id: string | null;
        created_at: number;
        last_seen_at: number;
        user_agent: string | null;
        ip: string | null;
        country: string | null;
      }>("SELECT id_hash, public_id, created_at, last_seen_at, user_agent, ip, country FROM sessions ORDER BY created_at DESC")
      .toArray();
    return rows
      .filter((r) => sessionExpiry({ createdAt: r.created_at, lastSeenAt: r.last_seen_at }) > now && r.public_id !== null)
      .map((r) => ({
        id: r.public_id!,
        createdAt: new Date(r.created_at).toISOString(),
        lastSeenAt: new Date(r.last_seen_at).toISOString(),
        expiresAt: info({ createdAt: r.created_at, lastSeenAt: r.last_seen_at }).expiresAt,
        userAgent: r.user_agent,
        ip: r.ip,
        country: r.country,
        current: r.id_hash === current,
      }));
  }

  /** Ends the session with this public handle; false when there is none. */
  async endSessionByHandle(publicId: string): Promise<boolean> {
    if (!(await this.#row())) return false;
    return this.ctx.storage.sql.exec("DELETE FROM sessions WHERE public_id = ?", publicId).rowsWritten > 0;
  }

  /**
   * Whether `password` is the account's, for a signed-in person confirming it is them before a
   * change that needs a recent sign-in (src/identity/recent-sign-in.ts): one KDF run, as a sign-in.
   */
  async confirmPassword(password: string): Promise<boolean> {
    const row = await this.#row();
    return this.#verify(row?.password_hash ?? null, password);
  }

  /** A single-use reset token for an existing account (null otherwise: nothing is stored). */
  async startReset(now = Date.now()): Promise<string | null> {
    const row = await this.#row();
    if (!row) return null;
    const token = newResetToken(row.id);
    this.ctx.storage.sql.exec("DELETE FROM reset_tokens WHERE expires_at <= ?", now);
    this.ctx.storage.sql.exec("INSERT INTO reset_tokens (hash, expires_at) VALUES (?, ?)", await sha256Hex(token), now + RESET_TTL_MS);
    return token;
  }

  /**
   * A new password from a reset link: the link works once and for an hour; every session of the
   * account ends (and every other outstanding link), every passkey is removed (any of them may be
   * one a thief added: docs/accounts.md "What a reset ends"), and a new session starts for this
   * browser. The answer names the passkeys removed, for the mail that says so.
   */
  async finishReset(token: string, password: string, client: ClientMeta, now = Date.now()): Promise<ResetDone | null> {
    const row = await this.#row();
    if (!row) return null;
    const hash = await sha256Hex(token);
    const found = this.ctx.storage.sql
      .exec<{ expires_at: number }>("SELECT expires_at FROM reset_tokens WHERE hash = ?", hash)
      .toArray()[0];
    // Used (or refused) once: gone before anything is awaited, so two uses at once cannot both pass.
    if (found) this.ctx.storage.sql.exec("DELETE FROM reset_tokens WHERE hash = ?", hash);
    if (!found || found.expires_at <= now) return null;
    this.#kdfRuns++;
    const phc = await hashPassword(password, kdfOf(this.env));
    const sql = this.ctx.storage.sql;
    const passkeysRemoved = this.ctx.storage.transactionSync(() => {
      sql.exec("DELETE FROM reset_tokens");
      sql.exec("UPDATE account SET password_hash = ?, password_prep = ?, password_changed_at = ?", phc, PASSWORD_PREP, now);
      this.#store.endAll();
      return sql
        .exec<{ name: string }>("DELETE FROM passkeys RETURNING name")
        .toArray()
        .map((r) => r.name);
    });
    await this.#noteClient(client, now);
    return { ...(await this.#startSession(client, now)), newClient: false, passkeysRemoved };
  }

  /**
   * The Workspace's push of one membership (null: removed). It is awaited before the workspace
   * acknowledges a change, so the next request with any of this account's sessions sees it.
   * Refused (nothing stored) when the account does not exist, when the membership names another
   * workspace or no role, or when it would be the account's 51st workspace (MAX_MEMBERSHIPS).
   */
  async setMembership(workspaceId: string, membership: Membership | null, now = Date.now()): Promise<SetMembershipResult> {
    if (!(await this.#row())) return { ok: false, reason: "no_account" };
    if (membership === null) {
      this.ctx.storage.sql.exec("DELETE FROM memberships WHERE workspace_id = ?", workspaceId);
    } else {
      if (membership.workspaceId !== workspaceId || !isRole(membership.role)) return { ok: false, reason: "invalid" };
      const others = this.ctx.storage.sql
        .exec<{ n: number }>("SELECT count(*) AS n FROM memberships WHERE workspace_id <> ?", workspaceId)
        .one().n;
      if (others >= MAX_MEMBERSHIPS) return { ok: false, reason: "too_many_workspaces" };
      this.ctx.storage.sql.exec(
        `INSERT INTO memberships (workspace_id, workspace_name, role, site_ids, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (workspace_id) DO UPDATE SET workspace_name = excluded.workspace_name, role = excluded.role,
           site_ids = excluded.site_ids, updated_at = excluded.updated_at`,
        workspaceId,
        membership.workspaceName,
        membership.role,
        membership.siteIds === null ? null : JSON.stringify(membership.siteIds),
        now,
      );
    }
    this.#memberships = null;
    return { ok: true };
  }

  async memberships(): Promise<Membership[]> {
    if (!(await this.#row())) return [];
    return this.#loadMemberships();
  }

  #loadMemberships(): Membership[] {
    this.#memberships ??= this.ctx.storage.sql
      .exec<{ workspace_id: string; workspace_name: string; role: string; site_ids: string | null }>(
        "SELECT workspace_id, workspace_name, role, site_ids FROM memberships ORDER BY workspace_name, workspace_id",
      )
      .toArray()
      .flatMap((r) =>
        isRole(r.role)
          ? [
              {
                workspaceId: r.workspace_id,
                workspaceName: r.workspace_name,
                role: r.role,
                siteIds: r.site_ids === null ? null : (JSON.parse(r.site_ids) as string[]),
              },
            ]
          : [],
      );
    return this.#memberships;
  }

  /** Passkey ids already registered (the browser is told not to make a second one on the same device). */
  async passkeyIds(): Promise<string[]> {
    if (!(await this.#row())) return [];
    return (await passkeyCode()).listPasskeys(this.ctx.storage.sql).map((p) => p.id);
  }

  async passkeys(): Promise<PasskeyView[]> {
    if (!(await this.#row())) return [];
    return (await passkeyCode()).listPasskeys(this.ctx.storage.sql);
  }

  /**
   * A new passkey for this (signed-in) account: its challenge is used once, then the browser's
   * registration is verified and the credential stored.
   */
  async addPasskey(
    response: RegistrationResponseJSON,
    expected: ExpectedPasskey,
    name: string,
    now = Date.now(),
  ): Promise<AddPasskeyResult> {
    if (!(await this.#row())) return { ok: false, reason: "no_account" };
    const sql = this.ctx.storage.sql;
    const { claimChallenge, passkeyOf, storePasskey, verifyRegistration } = await passkeyCode();
    if (!(await claimChallenge(sql, expected.challenge, expected.expiresAt, now))) return { ok: false, reason: "used_challenge" };
    const credential = await verifyRegistration(response, expected);
    if (!credential) return { ok: false, reason: "invalid" };
    const stored = storePasskey(sql, credential, expected.rpID, name, now);
    if (stored !== "ok") return { ok: false, reason: stored };
    return { ok: true, passkey: passkeyOf(sql, credential.id)! };
  }

  async renamePasskey(id: string, name: string): Promise<PasskeyView | null> {
    if (!(await this.#row())) return null;
    if (this.ctx.storage.sql.exec("UPDATE passkeys SET name = ? WHERE id = ?", name, id).rowsWritten === 0) return null;
    return (await passkeyCode()).passkeyOf(this.ctx.storage.sql, id);
  }

  /** Removes a passkey, unless it is the account's last way in (no password, no other passkey). */
  async removePasskey(id: string): Promise<RemovePasskeyResult> {
    const row = await this.#row();
    if (!row) return "not_found";
    const sql = this.ctx.storage.sql;
    const found = sql.exec<{ name: string }>("SELECT name FROM passkeys WHERE id = ?", id).toArray()[0];
    if (!found) return "not_found";
    if (row.password_hash === null && sql.exec<{ n: number }>("SELECT count(*) AS n FROM passkeys").one().n <= 1) return "last_method";
    sql.exec("DELETE FROM passkeys WHERE id = ?", id);
    return { removed: found.name };
  }

  /**
   * A sign-in with a passkey: a session when the assertion verifies (its challenge used once),
   * like a password sign-in's, "new sign-in" notice included.
   */
  async passkeySignIn(
    response: AuthenticationResponseJSON,
    expected: ExpectedPasskey,
    client: ClientMeta,
    now = Date.now(),
  ): Promise<StartedSession | { refused: string }> {
    if (!(await this.#row())) return { refused: "no_account" };
    const checked = await (await passkeyCode()).verifyAssertion(this.ctx.storage.sql, response, expected, now);
    if (!checked.ok) return { refused: checked.reason };
    const newClient = await this.#noteClient(client, now);
    return { ...(await this.#startSession(client, now)), newClient };
  }

  /**
   * Whether this address said no to invitation mails (the stop link in one, docs/accounts.md
   * "Invitation mail"). It is the address's preference, so it is kept whether or not an account
   * exists, as one key-value entry: the object's name is the only trace of the address (a hash of
   * it), the account's tables are not made, and signing up later keeps the choice.
   */
  async refusesInvitations(): Promise<boolean> {
    return (await this.ctx.storage.get<number>(REFUSES_INVITATIONS)) !== undefined;
  }

  /** Records the stop link's choice (or, `false`, undoes it). Only a signed link reaches here. */
  async setRefusesInvitations(refuse: boolean, now = Date.now()): Promise<void> {
    if (refuse) await this.ctx.storage.put(REFUSES_INVITATIONS, now);
    else await this.ctx.storage.delete(REFUSES_INVITATIONS);
  }

  /** Counters for tests: a sign-in for an unknown address must run the KDF like a known one. */
  async stats(): Promise<{ kdfRuns: number; stored: boolean }> {
    return { kdfRuns: this.#kdfRuns, stored: await this.#ready };
  }
}

function publicOf(row: AccountRow): AccountPublic {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    createdAt: new Date(row.created_at).toISOString(),
    hasPassword: row.password_hash !== null,
  };
}
