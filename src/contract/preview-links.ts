/**
 * Share links ("Preview links" in the API reference): what the dashboard API accepts and answers. A link
 * shows an item's current draft (its pending changes when it is published) to whoever holds the
 * URL, on the service's own host, until it expires, is revoked or has been opened `maxOpens` times.
 */
import { z } from "zod";
import { PREVIEW_LINK_LIMITS as L } from "./history-limits";

const instant = z.string().describe("ISO 8601 instant, UTC");

export const previewLinkInputSchema = z.strictObject({
  expiresIn: z
    .int()
    .min(L.minSeconds)
    .max(L.maxSeconds)
    .optional()
    .describe(`Seconds until the link stops working: ${L.minSeconds} (an hour) to ${L.maxSeconds} (30 days); default 7 days.`),
  password: z
    .string()
    .min(L.passwordMin, `use at least ${L.passwordMin} characters`)
    .max(L.passwordMax, `use at most ${L.passwordMax} characters`)
    .optional()
    .describe(
      `${L.passwordMin}–${L.passwordMax} characters. Stored hashed as account passwords are; asked for by a form, never in the URL.`,
    ),
  maxOpens: z
    .int()
    .min(1)
    .max(L.maxOpens)
    .optional()
    .describe("How many times the page may be opened (a browser's navigation counts; link previews of chat apps do not)."),
  label: z.string().trim().max(L.labelMax).optional().describe('Who it is for, for the owner\'s list ("Client review").'),
});
export type PreviewLinkInput = z.infer<typeof previewLinkInputSchema>;

export const PreviewLinkView = z
  .strictObject({
    id: z.string().describe("`pl_…`: names the link for revoking; not the secret."),
    itemId: z.string(),
    label: z.string(),
    createdAt: instant,
    createdBy: z.string().describe("Who created it, as recorded at the time."),
    expiresAt: instant,
    hasPassword: z.boolean(),
    maxOpens: z.int().nullable(),
    opens: z.int().describe("How many times the page was opened."),
    lastOpenedAt: instant.nullable(),
    revokedAt: instant.nullable(),
    state: z.enum(["live", "expired", "revoked", "used up"]),
  })
  .describe("A share link, without its token (shown once, when it is created).");

export const CreatedPreviewLink = z.strictObject({
  link: PreviewLinkView,
  url: z.string().describe("The link to share, with its secret token: answered only here, never again."),
});
