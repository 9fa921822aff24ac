/**
 * The dashboard API of outbound webhooks, under /sites/:siteId/webhooks (loaded with the other
 * dashboard routes, on the first dashboard call). Every change writes its audit row in its own
 * transaction; the receiver's URL is checked (DNS included) before that transaction.
 */
import { IttyRouter, type IRequest } from "itty-router";
import { ittyRouter, type Router } from "../../shared/router";
import { ApiError } from "../../../src/contract/errors";
import { json, readJsonObject } from "../../../src/http/json";
import { parseBody } from "../../../src/http/validation";
import { webhookCreateSchema, webhookPatchSchema, webhookRotateSchema } from "../../../src/contract/webhooks";
import { WEBHOOK_DELIVERIES_PAGE_MAX, type WebhookEventType } from "../../../src/contract/webhook-limits";
import type { SiteContext } from "../context";
import type { SiteAccess } from "../access/site-access";
import { recordAudit } from "../access/audit";
import {
  deleteEndpoint,
  type EndpointRow,
  insertEndpoint,
  listEndpoints,
  readEndpoint,
  rotateSecret,
  setEnabled,
  updateEndpoint,
} from "./endpoints";
import { attemptsOf, deliveryByEventId, deliveryLog, type DeliveryLogRow, lastAttempt, pendingCount, redeliver } from "./deliveries";
import { recordEvent } from "./outbox";
import { checkReceiverUrl, ReceiverUrlError } from "./receiver-url";
import { scheduleDeliveries } from "./deliver";
import { shownSecret } from "./sign";

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function webhookRoutes(s: SiteContext): Router<[SiteAccess]> {
  const router = IttyRouter<IRequest, [SiteAccess]>({ base: "/sites/:siteId/webhooks" });
  const audit = (a: SiteAccess, target: string, details?: unknown) => recordAudit(s.sql, a, target, details);
  const present = (row: EndpointRow) => presentEndpoint(s.sql, row);
  const endpointOf = (req: IRequest) => readEndpoint(s.sql, req.params.endpointId ?? "");
  const checkedUrl = async (raw: string): Promise<string> => {
    try {
      return await checkReceiverUrl(s.env, raw);
    } catch (err) {
      if (!(err instanceof ReceiverUrlError)) throw err;
      throw new ApiError("bad_request", `Invalid webhook endpoint: url: ${err.message}`, {
        issues: [{ path: "url", message: err.message }],
        reason: err.reason,
      });
    }
  };
  // A write may have queued a delivery (a test, a redelivery, an endpoint enabled again).
  const queued = <T>(value: T): T => {
    scheduleDeliveries(s.storage);
    return value;
  };

  router
    .get("/", () => json({ endpoints: listEndpoints(s.sql).map(present) }))
    .post("/", async (req, a) => {
      const input = parseBody(webhookCreateSchema, await readJsonObject(req), "webhook endpoint");
      const url = await checkedUrl(input.url);
      const row = s.storage.transactionSync(() => {
        const r = insertEndpoint(
          s.sql,
          { url, description: input.description ?? "", events: input.events, createdBy: a.grant.actor.id ?? null },
          Date.now(),
        );
        audit(a, `webhook ${url}`, { id: r.id, events: input.events });
        return r;
      });
      // The secret is shown here and after a rotation, never again.
      return json({ endpoint: present(row), secret: shownSecret(row.secret) }, 201);
    })
    .get("/:endpointId", (req) => json({ endpoint: present(endpointOf(req)) }))
    .patch("/:endpointId", async (req, a) => {
      const row = endpointOf(req);
      const patch = parseBody(webhookPatchSchema, await readJsonObject(req), "webhook endpoint");
      const url = patch.url === undefined ? undefined : await checkedUrl(patch.url);
      const now = Date.now();
      s.storage.transactionSync(() => {
        updateEndpoint(s.sql, row.id, { url, description: patch.description, events: patch.events }, now);
        if (patch.enabled !== undefined) setEnabled(s.sql, row.id, patch.enabled, now, a.grant.actor.id);
        audit(a, `webhook ${url ?? row.url}`, { id: row.id, fields: Object.keys(patch) });
      });
      return queued(json({ endpoint: present(readEndpoint(s.sql, row.id)) }));
    })
    .delete("/:endpointId", (req, a) => {
      const row = endpointOf(req);
      s.storage.transactionSync(() => {
        deleteEndpoint(s.sql, row.id);
        audit(a, `webhook ${row.url}`, { id: row.id });
      });
      return json({ deleted: true, id: row.id });
    })
    .post("/:endpointId/rotate-secret", async (req, a) => {
      const row = endpointOf(req);
      const { overlapHours } = parseBody(webhookRotateSchema, await readJsonObject(req), "rotation");
      const secret = s.storage.transactionSync(() => {
        const sec = rotateSecret(s.sql, row.id, overlapHours, Date.now());
        audit(a, `webhook ${row.url}`, { id: row.id, overlapHours: overlapHours ?? null });
        return sec;
      });
      return json({ endpoint: present(readEndpoint(s.sql, row.id)), secret: shownSecret(secret) });
    })
    .post("/:endpointId/test", (req, a) => {
      const row = endpointOf(req);
      const now = Date.now();
      const event = s.storage.transactionSync(() => {
        const e = recordEvent(s.sql, "webhook.test", row.id, { siteId: s.site()!.id, endpointId: row.id }, now, [row.id]);
        audit(a, `webhook ${row.url}`, { id: row.id, eventId: e.id });
        return e;
      });
      const delivery = deliveryByEventId(s.sql, row.id, event.id)!;
      return queued(json({ delivery: presentDelivery(delivery) }, 202));
    })
    .get("/:endpointId/deliveries", (req) => {
      const row = endpointOf(req);
      const url = new URL(req.url);
      const before = url.searchParams.get("before");
      const limit = Number(url.searchParams.get("limit") ?? WEBHOOK_DELIVERIES_PAGE_MAX);
      if (before !== null && !/^\d{1,15}$/.test(before)) throw new ApiError("bad_request", "before: must be a delivery's seq.");
      if (!Number.isInteger(limit) || limit < 1 || limit > WEBHOOK_DELIVERIES_PAGE_MAX)
        throw new ApiError("bad_request", `limit: must be 1 to ${WEBHOOK_DELIVERIES_PAGE_MAX}.`);
      const rows = deliveryLog(s.sql, row.id, before === null ? null : Number(before), limit);
      return json({ deliveries: rows.map(presentDelivery), next: rows.length === limit ? String(rows[rows.length - 1]!.event_seq) : null });
    })
    .get("/:endpointId/deliveries/:eventId", (req) => {
      const row = endpointOf(req);
      const d = deliveryOf(s.sql, row.id, req.params.eventId ?? "");
      const payload = s.sql.exec<{ payload: string }>("SELECT payload FROM webhook_events WHERE seq = ?", d.event_seq).one().payload;
      const attempts = attemptsOf(s.sql, row.id, d.event_seq).map((x) => ({
        at: iso(x.at)!,
        status: x.status,
        durationMs: x.duration_ms,
        error: x.error,
        responseHead: x.response_head,
      }));
      return json({ delivery: presentDelivery(d), payload, attempts });
    })
    .post("/:endpointId/deliveries/:eventId/redeliver", (req, a) => {
      const row = endpointOf(req);
      const d = deliveryOf(s.sql, row.id, req.params.eventId ?? "");
      s.storage.transactionSync(() => {
        redeliver(s.sql, row.id, d.event_seq, Date.now());
        audit(a, `webhook ${row.url}`, { id: row.id, eventId: d.id });
      });
      return queued(json({ delivery: presentDelivery(deliveryOf(s.sql, row.id, d.id)) }, 202));
    });
  return ittyRouter(router);
}

function deliveryOf(sql: SqlStorage, endpointId: string, eventId: string): DeliveryLogRow {
  const d = deliveryByEventId(sql, endpointId, eventId);
  if (!d) throw new ApiError("not_found", `No delivery of event "${eventId.slice(0, 40)}" to this endpoint.`);
  return d;
}

export function presentEndpoint(sql: SqlStorage, row: EndpointRow) {
  const last = lastAttempt(sql, row.id);
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as WebhookEventType[],
    state: row.state,
    // Paused because its maker went: stored as a pause (the column's own reasons are fixed), told apart here.
    disabledReason: row.disabled_maker !== null && row.state === "disabled" ? ("maker" as const) : row.disabled_reason,
    disabledMaker: row.state === "disabled" ? row.disabled_maker : null,
    disabledAt: iso(row.disabled_at),
    previousSecretUntil: row.previous_secret && (row.previous_secret_until ?? 0) > Date.now() ? iso(row.previous_secret_until) : null,
    pending: pendingCount(sql, row.id),
    throttledUntil: (row.throttled_until ?? 0) > Date.now() ? iso(row.throttled_until) : null,
    lastDelivery: last
      ? { at: iso(last.at)!, status: last.status, ok: last.status !== null && last.status >= 200 && last.status < 300 }
      : null,
    createdAt: iso(row.created_at)!,
    updatedAt: iso(row.updated_at)!,
  };
}

function presentDelivery(d: DeliveryLogRow) {
  return {
    eventId: d.id,
    type: d.type,
    orderKey: d.order_key,
    state: d.state,
    attempts: d.attempts,
    nextAt: d.state === "pending" ? iso(d.next_at) : null,
    createdAt: iso(d.created_at)!,
    lastStatus: d.status,
    lastError: d.error,
    lastDurationMs: d.duration_ms,
    lastResponseHead: d.response_head,
    lastAttemptAt: iso(d.at),
    waitsFor: d.waits_for_id === null ? null : { eventId: d.waits_for_id, type: d.waits_for_type ?? "" },
  };
}
