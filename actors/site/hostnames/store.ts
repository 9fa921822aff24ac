import type { SslStatus } from "./providers";

export interface HostnameRecord {
  hostname: string;
  provider: string;
  providerId: string;
  sslStatus: SslStatus;
  missing: string[];
  validationToken: string;
  validated: boolean;
  /** The TXT record that proves this registration's control of the hostname's DNS. */
  challenge: { name: string; value: string };
  /** Whether the TXT record was seen (through DNS over HTTPS). */
  ownerVerified: boolean;
  checks: number;
  createdAt: string;
  updatedAt: string;
}

type Row = {
  hostname: string;
  provider: string;
  provider_id: string;
  ssl_status: string;
  missing: string;
  validation_token: string;
  validated: number;
  challenge_name: string;
  challenge_value: string;
  owner_verified: number;
  checks: number;
  created_at: string;
  updated_at: string;
};

const toRecord = (r: Row): HostnameRecord => ({
  hostname: r.hostname,
  provider: r.provider,
  providerId: r.provider_id,
  sslStatus: r.ssl_status as SslStatus,
  missing: JSON.parse(r.missing) as string[],
  validationToken: r.validation_token,
  validated: r.validated === 1,
  challenge: { name: r.challenge_name, value: r.challenge_value },
  ownerVerified: r.owner_verified === 1,
  checks: r.checks,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** At most two rows: the active hostname and a newer one that replaces it once it is active itself. */
export function readHostnames(sql: SqlStorage): HostnameRecord[] {
  return sql.exec<Row>("SELECT * FROM custom_hostnames ORDER BY created_at").toArray().map(toRecord);
}

export function activeHostname(sql: SqlStorage): HostnameRecord | null {
  return readHostnames(sql).find((h) => h.sslStatus === "active") ?? null;
}

export function insertHostname(
  sql: SqlStorage,
  h: Omit<HostnameRecord, "checks" | "validated" | "ownerVerified" | "createdAt" | "updatedAt">,
): void {
  const now = new Date().toISOString();
  sql.exec(
    `INSERT INTO custom_hostnames (hostname, provider, provider_id, ssl_status, missing, validation_token, validated,
       challenge_name, challenge_value, owner_verified, checks, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, 0, 0, ?, ?)`,
    h.hostname,
    h.provider,
    h.providerId,
    h.sslStatus,
    JSON.stringify(h.missing),
    h.validationToken,
    h.challenge.name,
    h.challenge.value,
    now,
    now,
  );
}

/** A registration from before the proof existed gets its challenge (once). */
export function setChallenge(sql: SqlStorage, hostname: string, challenge: { name: string; value: string }): void {
  sql.exec(
    "UPDATE custom_hostnames SET challenge_name = ?, challenge_value = ? WHERE hostname = ? AND challenge_value = ''",
    challenge.name,
    challenge.value,
    hostname,
  );
}

export function markOwnerVerified(sql: SqlStorage, hostname: string): void {
  sql.exec("UPDATE custom_hostnames SET owner_verified = 1 WHERE hostname = ?", hostname);
}

export function updateHostname(
  sql: SqlStorage,
  hostname: string,
  patch: { sslStatus: SslStatus; missing: string[]; checks?: number },
): void {
  sql.exec(
    "UPDATE custom_hostnames SET ssl_status = ?, missing = ?, checks = COALESCE(?, checks), updated_at = ? WHERE hostname = ?",
    patch.sslStatus,
    JSON.stringify(patch.missing),
    patch.checks ?? null,
    new Date().toISOString(),
    hostname,
  );
}

export function markValidated(sql: SqlStorage, hostname: string, token: string): boolean {
  return sql.exec("UPDATE custom_hostnames SET validated = 1 WHERE hostname = ? AND validation_token = ?", hostname, token).rowsWritten > 0;
}

export function deleteHostname(sql: SqlStorage, hostname: string): void {
  sql.exec("DELETE FROM custom_hostnames WHERE hostname = ?", hostname);
}
