/**
 * The captured page of a site (one per site) in SQLite, in parts (see
 * storage/parts.ts: captures may be up to 5 MB). A capture or refresh replaces
 * everything in one transaction.
 */
import { splitParts } from "../storage/parts";
import type { SeoSettings } from "../seo/fields";
import type { CompiledPage, CompiledWidget } from "./compile";

export interface CaptureConfig {
  pageUrl: string;
  publicUrl: string;
  collectionId: string;
  showsList: boolean;
  /** Extra settings (SEO field choices, webhook signing secret), kept as given. */
  extra: CaptureExtra;
}

export interface CaptureExtra {
  webhookSigningSecret?: string;
  seo?: SeoSettings;
}

export interface RefreshResult {
  at: string;
  ok: boolean;
  trigger: "capture" | "manual" | "webhook" | "nightly";
  error?: string;
}

export interface StoredCapture extends CaptureConfig {
  page: Omit<CompiledPage, "html" | "widgets"> & { widgets: CompiledWidget[] };
  html: string;
  webhookSecret: string;
  /** Whether the old URL form with the secret in its path is still accepted (hooks made before it was retired). */
  webhookLegacyUrl: boolean;
  capturedAt: string;
  refreshedAt: string;
  lastRefresh: RefreshResult | null;
}

type CaptureRow = {
  page_url: string;
  public_url: string;
  collection_id: string;
  shows_list: number;
  config: string;
  compiled: string;
  webhook_secret: string;
  webhook_legacy_url: number;
  captured_at: string;
  refreshed_at: string;
  last_refresh: string | null;
};

export function readCapture(sql: SqlStorage): StoredCapture | null {
  const row = sql.exec<CaptureRow>("SELECT * FROM ssr_capture WHERE id = 1").toArray()[0];
  if (!row) return null;
  const html = sql
    .exec<{ html: string }>("SELECT html FROM ssr_page_parts ORDER BY part")
    .toArray()
    .map((r) => r.html)
    .join("");
  return {
    pageUrl: row.page_url,
    publicUrl: row.public_url,
    collectionId: row.collection_id,
    showsList: row.shows_list === 1,
    extra: JSON.parse(row.config) as CaptureExtra,
    page: JSON.parse(row.compiled) as StoredCapture["page"],
    html,
    webhookSecret: row.webhook_secret,
    webhookLegacyUrl: row.webhook_legacy_url === 1,
    capturedAt: row.captured_at,
    refreshedAt: row.refreshed_at,
    lastRefresh: row.last_refresh ? (JSON.parse(row.last_refresh) as RefreshResult) : null,
  };
}

/** A new capture: configuration and page together. Keeps the webhook secret when there is one already. */
export function writeCapture(
  storage: DurableObjectStorage,
  config: CaptureConfig,
  page: CompiledPage,
  webhookSecret: string,
  now: string,
  legacyUrl = false,
): void {
  storage.transactionSync(() => {
    const { html, ...compiled } = page;
    storage.sql.exec(
      `INSERT INTO ssr_capture (id, page_url, public_url, collection_id, shows_list, config, compiled, webhook_secret, captured_at, refreshed_at, last_refresh, webhook_legacy_url)
       VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET page_url = excluded.page_url, public_url = excluded.public_url, collection_id = excluded.collection_id,
         shows_list = excluded.shows_list, config = excluded.config, compiled = excluded.compiled, webhook_secret = excluded.webhook_secret,
         captured_at = excluded.captured_at, refreshed_at = excluded.refreshed_at, last_refresh = excluded.last_refresh,
         webhook_legacy_url = excluded.webhook_legacy_url`,
      config.pageUrl,
      config.publicUrl,
      config.collectionId,
      config.showsList ? 1 : 0,
      JSON.stringify(config.extra),
      JSON.stringify(compiled),
      webhookSecret,
      now,
      now,
      JSON.stringify({ at: now, ok: true, trigger: "capture" } satisfies RefreshResult),
      legacyUrl ? 1 : 0,
    );
    writeParts(storage.sql, html);
  });
}

/** A successful refresh: same configuration, new page. */
export function writeRefreshedPage(storage: DurableObjectStorage, page: CompiledPage, result: RefreshResult): void {
  storage.transactionSync(() => {
    const { html, ...compiled } = page;
    storage.sql.exec(
      "UPDATE ssr_capture SET compiled = ?, refreshed_at = ?, last_refresh = ? WHERE id = 1",
      JSON.stringify(compiled),
      result.at,
      JSON.stringify(result),
    );
    writeParts(storage.sql, html);
  });
}

/** A new webhook secret; the old URL form (secret in the path) is retired with the old secret. */
export function rotateWebhookSecret(sql: SqlStorage, secret: string): void {
  sql.exec("UPDATE ssr_capture SET webhook_secret = ?, webhook_legacy_url = 0 WHERE id = 1", secret);
}

/**
 * Remembers a signed delivery's id; false when it was seen already. Ids older than the signed
 * timestamp's tolerance are forgotten: such a delivery is refused by its timestamp anyway.
 */
export function firstDelivery(sql: SqlStorage, id: string, now: number, keepMs: number): boolean {
  sql.exec("DELETE FROM webhook_deliveries WHERE seen_at < ?", now - keepMs);
  return sql.exec("INSERT OR IGNORE INTO webhook_deliveries (id, seen_at) VALUES (?, ?)", id, now).rowsWritten > 0;
}

export function recordRefresh(sql: SqlStorage, result: RefreshResult): void {
  sql.exec("UPDATE ssr_capture SET last_refresh = ? WHERE id = 1", JSON.stringify(result));
}

function writeParts(sql: SqlStorage, html: string): void {
  sql.exec("DELETE FROM ssr_page_parts");
  for (const [part, chunk] of splitParts(html).entries()) sql.exec("INSERT INTO ssr_page_parts (part, html) VALUES (?, ?)", part, chunk);
}

/** New extra settings (the SEO choices) for the same captured page: nothing is fetched again. */
export function writeCaptureExtra(sql: SqlStorage, extra: CaptureExtra): void {
  sql.exec("UPDATE ssr_capture SET config = ? WHERE id = 1", JSON.stringify(extra));
}
