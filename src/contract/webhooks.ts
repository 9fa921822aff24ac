/**
 * Outbound webhooks (Standard Webhooks): what a site owner registers and what the dashboard API
 * answers about endpoints and deliveries. Not the capture's inbound publish webhook (ssr.ts).
 */
import { z } from "zod";

import { WEBHOOK_EVENT_TYPES, WEBHOOK_OVERLAP_DEFAULT_HOURS, WEBHOOK_OVERLAP_MAX_HOURS, WEBHOOK_URL_MAX } from "./webhook-limits";

const url = z.string().trim().min(1).max(WEBHOOK_URL_MAX).describe("The receiver, `https:` (loopback and private addresses refused).");
const events = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .describe("The event types sent to this endpoint.");
const description = z.string().trim().max(500);

export const webhookCreateSchema = z.object({ url, description: description.optional(), events }).strict();

export const webhookPatchSchema = z
  .object({
    url: url.optional(),
    description: description.optional(),
    events: events.optional(),
    enabled: z.boolean().optional().describe("false pauses deliveries (kept pending); true resumes them, also after an automatic disable."),
  })
  .strict();

export const webhookRotateSchema = z
  .object({
    overlapHours: z
      .number()
      .int()
      .min(0)
      .max(WEBHOOK_OVERLAP_MAX_HOURS)
      .optional()
      .describe(`How long deliveries are signed with the old secret too (default ${WEBHOOK_OVERLAP_DEFAULT_HOURS}).`),
  })
  .strict();

export const WebhookEndpoint = z.strictObject({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  state: z.enum(["enabled", "disabled"]),
  disabledReason: z
    .enum(["gone", "failing", "owner", "maker"])
    .nullable()
    .describe(
      "`gone`: the receiver answered 410; `failing`: every retry of a delivery failed (about three days); `owner`: paused; `maker`: paused because the member who registered it left the workspace or may no longer manage the site's settings (resuming makes it the resumer's).",
    ),
  disabledMaker: z.string().nullable().describe('With `disabledReason: "maker"`: the email of the member who registered it.'),
  disabledAt: z.string().nullable(),
  previousSecretUntil: z.string().nullable().describe("While set, deliveries also carry a signature with the previous secret."),
  pending: z.number().int().describe("Deliveries waiting to be sent."),
  throttledUntil: z
    .string()
    .nullable()
    .describe("The receiver answered 429, 502 or 504: nothing is sent to it before this time (its Retry-After, else 30 s)."),
  lastDelivery: z
    .strictObject({ at: z.string(), status: z.number().int().nullable(), ok: z.boolean() })
    .nullable()
    .describe("The last attempt to this endpoint."),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const WebhookDelivery = z.strictObject({
  eventId: z.string().describe("The `webhook-id` header of every attempt of this event."),
  type: z.string(),
  orderKey: z.string(),
  state: z.enum(["pending", "delivered", "failed", "cancelled"]),
  attempts: z.number().int(),
  nextAt: z.string().nullable(),
  createdAt: z.string(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastDurationMs: z.number().int().nullable(),
  lastResponseHead: z.string().nullable().describe("The first 1 KB of the receiver's last answer, as text."),
  lastAttemptAt: z.string().nullable(),
  waitsFor: z
    .strictObject({ eventId: z.string(), type: z.string() })
    .nullable()
    .describe(
      "A pending delivery that is not sent yet because an earlier event of the same item (orderKey) to this endpoint is still pending: that event. Events of one item go out in order, so this one waits, whatever its nextAt says. Null otherwise.",
    ),
});

export const WebhookAttempt = z.strictObject({
  at: z.string(),
  status: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
  responseHead: z.string().nullable(),
});
