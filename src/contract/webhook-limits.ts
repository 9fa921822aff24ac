/** Outbound webhooks' event types and limits, without zod (the Site object's delivery job reads them). */

/** Every event a receiver can subscribe to (docs/webhooks.md). `webhook.test` is sent on request only. */
export const WEBHOOK_EVENT_TYPES = [
  "item.created",
  "item.updated",
  "item.published",
  "item.unpublished",
  "item.deleted",
  "collection.created",
  "collection.updated",
  "collection.deleted",
  "capture.refreshed",
  "import.finished",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_MAX_ENDPOINTS = 10;
export const WEBHOOK_URL_MAX = 2048;
/** Rotation: how long the previous secret keeps signing (hours). */
export const WEBHOOK_OVERLAP_DEFAULT_HOURS = 24;
export const WEBHOOK_OVERLAP_MAX_HOURS = 168;
/** How much of a receiver's answer the delivery log keeps. */
export const WEBHOOK_RESPONSE_HEAD_BYTES = 1024;
export const WEBHOOK_DELIVERIES_PAGE_MAX = 50;
