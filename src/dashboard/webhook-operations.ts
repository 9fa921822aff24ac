/**
 * Outbound webhooks (Standard Webhooks, signed, retried) as operations of the OpenAPI document.
 * Served by the site object (actors/site/webhooks/routes.ts). Not the capture's inbound
 * publish webhook (`ssrWebhook`, `rotateWebhookSecret`).
 */
import { z } from "zod";
import {
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  webhookCreateSchema,
  webhookPatchSchema,
  webhookRotateSchema,
} from "../contract/webhooks";
import { WEBHOOK_DELIVERIES_PAGE_MAX, WEBHOOK_MAX_ENDPOINTS } from "../contract/webhook-limits";
import { operation, type Operation, type Param } from "../openapi/registry";
import { withSiteId } from "./operations";

const json = (description: string, schema: z.ZodType) => ({ description, schema, headers: "json" }) as const;
const TAG = "Outbound webhooks";
const B = "/sites/{siteId}/webhooks";
const endpointId: Param = {
  name: "endpointId",
  in: "path",
  description: "The endpoint's id (`whe_…`).",
  schema: z.string(),
  required: true,
};
const eventId: Param = {
  name: "eventId",
  in: "path",
  description: "The event's id (`msg_…`), its `webhook-id` header.",
  schema: z.string(),
  required: true,
};
const endpoint = z.strictObject({ endpoint: WebhookEndpoint });
const withSecret = z.strictObject({
  endpoint: WebhookEndpoint,
  secret: z.string().describe("`whsec_…`: the signing secret, shown in this answer only."),
});
const delivery = z.strictObject({ delivery: WebhookDelivery });

const ops: Operation[] = [
  operation({
    id: "listWebhookEndpoints",
    method: "get",
    path: B,
    tag: TAG,
    summary: "The site's webhook endpoints",
    auth: "siteKey",
    responses: { 200: json("The endpoints, oldest first.", z.strictObject({ endpoints: z.array(WebhookEndpoint) })) },
    errors: ["not_found"],
  }),
  operation({
    id: "createWebhookEndpoint",
    method: "post",
    path: B,
    tag: TAG,
    summary: "Register a receiver of signed events",
    description: `Events go out after their change commits, at least once, in order per item, signed by the Standard Webhooks specification (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature: v1,…\`). The URL must be \`https:\` and neither be nor resolve to a loopback or private address (400 with \`details.reason\` \`bad_url\`, \`private_address\` or \`unreachable\`). At most ${WEBHOOK_MAX_ENDPOINTS} endpoints per site (409). The answer's \`secret\` is shown once.`,
    auth: "siteKey",
    body: webhookCreateSchema,
    responses: { 201: json("Registered.", withSecret) },
    errors: ["not_found", "conflict"],
  }),
  operation({
    id: "getWebhookEndpoint",
    method: "get",
    path: `${B}/{endpointId}`,
    tag: TAG,
    summary: "One endpoint and its state",
    auth: "siteKey",
    params: [endpointId],
    responses: { 200: json("The endpoint.", endpoint) },
    errors: ["not_found"],
  }),
  operation({
    id: "updateWebhookEndpoint",
    method: "patch",
    path: `${B}/{endpointId}`,
    tag: TAG,
    summary: "Change, pause or resume an endpoint",
    description:
      "`enabled: false` pauses deliveries (they wait); `enabled: true` resumes them at once, also after the service disabled the endpoint (410 Gone, or every retry failed).",
    auth: "siteKey",
    params: [endpointId],
    body: webhookPatchSchema,
    responses: { 200: json("Changed.", endpoint) },
    errors: ["not_found"],
  }),
  operation({
    id: "deleteWebhookEndpoint",
    method: "delete",
    path: `${B}/{endpointId}`,
    tag: TAG,
    summary: "Delete an endpoint and its delivery log",
    auth: "siteKey",
    params: [endpointId],
    responses: { 200: json("Deleted.", z.strictObject({ deleted: z.literal(true), id: z.string() })) },
    errors: ["not_found"],
  }),
  operation({
    id: "rotateWebhookEndpointSecret",
    method: "post",
    path: `${B}/{endpointId}/rotate-secret`,
    tag: TAG,
    summary: "A new signing secret, the old one still signing for a while",
    description:
      "During the overlap every delivery carries two signatures (`v1,<new> v1,<old>`), so the receiver can switch secrets at its own pace. The new `secret` is shown in this answer only.",
    auth: "siteKey",
    params: [endpointId],
    body: webhookRotateSchema,
    responses: { 200: json("Rotated.", withSecret) },
    errors: ["not_found"],
  }),
  operation({
    id: "sendWebhookTest",
    method: "post",
    path: `${B}/{endpointId}/test`,
    tag: TAG,
    summary: "Send a `webhook.test` event to this endpoint now",
    auth: "siteKey",
    params: [endpointId],
    responses: { 202: json("Queued; the delivery log shows the outcome.", delivery) },
    errors: ["not_found"],
  }),
  operation({
    id: "listWebhookDeliveries",
    method: "get",
    path: `${B}/{endpointId}/deliveries`,
    tag: TAG,
    summary: "The endpoint's newest deliveries with their last attempt",
    auth: "siteKey",
    params: [
      endpointId,
      { name: "before", in: "query", description: "The previous page's `next`.", schema: z.string() },
      {
        name: "limit",
        in: "query",
        description: `1 to ${WEBHOOK_DELIVERIES_PAGE_MAX}.`,
        schema: z.int().default(WEBHOOK_DELIVERIES_PAGE_MAX),
      },
    ],
    responses: {
      200: json(
        "Newest first.",
        z.strictObject({ deliveries: z.array(WebhookDelivery), next: z.string().nullable().describe("`before` for the next page.") }),
      ),
    },
    errors: ["not_found", "bad_request"],
  }),
  operation({
    id: "getWebhookDelivery",
    method: "get",
    path: `${B}/{endpointId}/deliveries/{eventId}`,
    tag: TAG,
    summary: "One delivery: its payload and every attempt",
    auth: "siteKey",
    params: [endpointId, eventId],
    responses: {
      200: json(
        "The delivery.",
        z.strictObject({
          delivery: WebhookDelivery,
          payload: z.string().describe("The exact body sent."),
          attempts: z.array(WebhookAttempt),
        }),
      ),
    },
    errors: ["not_found"],
  }),
  operation({
    id: "redeliverWebhook",
    method: "post",
    path: `${B}/{endpointId}/deliveries/{eventId}/redeliver`,
    tag: TAG,
    summary: "Try a delivery again now, same `webhook-id`",
    description: "A delivered, failed or cancelled delivery starts a new retry schedule.",
    auth: "siteKey",
    params: [endpointId, eventId],
    responses: { 202: json("Queued.", delivery) },
    errors: ["not_found"],
  }),
];

export const webhookOperations: Operation[] = ops.map(withSiteId);
