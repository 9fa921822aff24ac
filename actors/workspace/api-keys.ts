/**
 * Workspace API keys (`ak_…`): named, read or full scope, optionally one site; the key is shown
 * once and only its SHA-256 is kept. Owner of table `api_keys`.
 */
import { ApiError, clip } from "../../src/contract/errors";
import { newApiKey, randomId, sha256Hex } from "../../src/ids";

export interface ApiKeyView {
  id: string;
  name: string;
  scope: "read" | "full";
  siteId: string | null;
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

type Row = {
  id: string;
  name: string;
  hash: string;
  scope: "read" | "full";
  site_id: string | null;
  created_by: string;
  /** The account that made it; null when the operator did (migration 4). */
  created_by_account: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const view = (r: Row): ApiKeyView => ({
  id: r.id,
  name: r.name,
  scope: r.scope,
  siteId: r.site_id,
  createdBy: r.created_by,
  createdAt: new Date(r.created_at).toISOString(),
  lastUsedAt: iso(r.last_used_at),
  revokedAt: iso(r.revoked_at),
});

/** Keys per workspace, revoked ones included (they stay listed for the record). */
export const MAX_API_KEYS = 100;
/** "Last used" is written at most this often per key, so a busy script does not write on every call. */
const TOUCH_MS = 60_000;

export async function prepareKey(workspaceId: string): Promise<{ key: string; hash: string }> {
  const key = newApiKey(workspaceId);
  return { key, hash: await sha256Hex(key) };
}

export function insertKey(
  sql: SqlStorage,
  input: { name: string; scope: "read" | "full"; siteId: string | null; hash: string; createdBy: string; createdByAccount: string | null },
): ApiKeyView {
  const n = sql.exec<{ n: number }>("SELECT count(*) AS n FROM api_keys").one().n;
  if (n >= MAX_API_KEYS) throw new ApiError("conflict", `A workspace has at most ${MAX_API_KEYS} API keys; revoke or delete some first.`);
  const row = sql
    .exec<Row>(
      `INSERT INTO api_keys (id, name, hash, scope, site_id, created_by, created_by_account, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      `key_${randomId(12)}`,
      input.name,
      input.hash,
      input.scope,
      input.siteId,
      input.createdBy,
      input.createdByAccount,
      Date.now(),
    )
    .one();
  return view(row);
}

export function listKeys(sql: SqlStorage): ApiKeyView[] {
  return sql.exec<Row>("SELECT * FROM api_keys ORDER BY created_at DESC").toArray().map(view);
}

export function revokeKey(sql: SqlStorage, id: string): ApiKeyView {
  const row = sql
    .exec<Row>("UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING *", Date.now(), id)
    .toArray()[0];
  if (!row) throw new ApiError("not_found", `No API key "${clip(id)}".`);
  return view(row);
}

/** The live keys an account made (the ones to revoke when it may no longer make keys). */
export function liveKeysOf(sql: SqlStorage, accountId: string): ApiKeyView[] {
  return sql
    .exec<Row>("SELECT * FROM api_keys WHERE created_by_account = ? AND revoked_at IS NULL ORDER BY created_at", accountId)
    .toArray()
    .map(view);
}

/**
 * The key's grant when it is live; touches "last used" (at most once a minute). `makerMay` is
 * asked about the account that made the key: a key is refused once its maker may no longer make
 * keys, even if nothing revoked it (a key left from before makers were recorded, say).
 */
export async function verifyKey(
  sql: SqlStorage,
  key: string,
  makerMay: (accountId: string) => boolean,
  now = Date.now(),
): Promise<Row | null> {
  const row = sql.exec<Row>("SELECT * FROM api_keys WHERE hash = ?", await sha256Hex(key)).toArray()[0];
  if (!row || row.revoked_at !== null) return null;
  if (row.created_by_account !== null && !makerMay(row.created_by_account)) return null;
  if (row.last_used_at === null || now - row.last_used_at >= TOUCH_MS)
    sql.exec("UPDATE api_keys SET last_used_at = ? WHERE id = ?", now, row.id);
  return row;
}
