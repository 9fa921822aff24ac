/**
 * Item history and scheduling as the API answers and accepts them: revisions, the
 * trash, schedules; and how long history is kept on each plan.
 */
import { z } from "zod";
import { TRASH_DAYS } from "./history-limits";

const instant = z.string().describe("ISO 8601 instant, UTC");

export const RETENTION_TEXT =
  "Kept per item on Free and Starter: the newest 50 revisions, none older than 90 days; Pro: 200 and 365 days; SEO Engine: all. An item's newest revision is never pruned; a deleted item's history is kept 30 days (the trash). Pruned daily.";

export const RevisionActorView = z
  .strictObject({
    kind: z.string().describe("operator, siteKey, account, apiKey, schedule (a scheduled change; id and label say who set it) or system"),
    id: z.string().nullable(),
    label: z.string().describe("The email, key name, `site admin key`, `operator`, or `schedule set by …`."),
    name: z
      .string()
      .nullable()
      .describe(
        "The person's name as they gave it at sign-up (for a scheduled change, who set it); null when none was recorded: show `label`.",
      ),
  })
  .describe("Who made the change, as recorded at the time.");

export const REVISION_KIND_VALUES = [
  "baseline",
  "create",
  "edit",
  "publish",
  "unpublish",
  "delete",
  "undelete",
  "restore",
  "schema",
  "schedule",
  "unschedule",
  "scheduled_publish",
  "scheduled_unpublish",
  "pending",
  "discard",
] as const;

export const RevisionSummary = z
  .strictObject({
    id: z.string().describe("`rv_…`"),
    number: z.int().describe("1, 2, 3… per item"),
    kind: z.enum(REVISION_KIND_VALUES).describe("`baseline`: the item as it was before history existed (its first change)."),
    status: z.enum(["draft", "published"]).describe("The item's status after the change."),
    slug: z.string(),
    changed: z.array(z.string()).describe("Field keys whose values changed, and `slug`, `status`, `schedule`."),
    at: instant,
    actor: RevisionActorView,
    note: z.string().nullable(),
  })
  .describe("One change of an item; the item as it was after it is in `data` of the full revision.");

export const Revision = RevisionSummary.extend({
  data: z.record(z.string(), z.unknown()).describe("The item's values after the change, as stored."),
}).describe("A revision with the item's values.");

export const RestoreReport = z.strictObject({
  dropped: z
    .array(z.strictObject({ field: z.string(), reason: z.string() }))
    .describe("Values of that version that today's fields no longer accept (removed field, missing media or item): left out."),
});

export const TrashEntry = z.strictObject({
  id: z.string(),
  collection: z.string(),
  slug: z.string(),
  title: z
    .string()
    .nullable()
    .describe("Its title field's value when deleted (the field that names its items); null without one: show the slug."),
  status: z.enum(["draft", "published"]).describe("Its status when deleted; restored with it."),
  deletedAt: instant,
  deletedBy: RevisionActorView,
  purgeAt: instant.describe(`When it leaves the trash for good (${TRASH_DAYS} days after the delete).`),
});

export const ScheduleView = z
  .strictObject({
    publishAt: instant.nullable(),
    unpublishAt: instant.nullable(),
    timeZone: z.string().nullable().describe("The IANA zone the times were picked in (for display)."),
  })
  .describe("When the item is published and unpublished by the site's alarm.");

export const PendingChangesView = z.strictObject({
  slug: z.string(),
  data: z.record(z.string(), z.unknown()),
  updatedAt: instant,
  updatedBy: z.string().nullable().describe("The account or key id that saved them; null for the operator and admin keys."),
});

const offsetInstant = z.iso.datetime({ offset: true });

export const scheduleInputSchema = z.strictObject({
  publishAt: offsetInstant
    .nullable()
    .optional()
    .describe("ISO 8601 with seconds and an offset (`2026-11-30T09:00:00+01:00` or `…Z`); null clears it; missing keeps it."),
  unpublishAt: offsetInstant.nullable().optional().describe("As publishAt; must be after it."),
  timeZone: z.string().max(64).optional().describe("The IANA zone the owner picked the times in (display only)."),
});

export const UpcomingChange = z.strictObject({
  item: z.strictObject({ id: z.string(), slug: z.string(), collection: z.string(), title: z.string().nullable() }),
  action: z.enum(["publish", "unpublish"]),
  at: instant,
  timeZone: z.string().nullable(),
});
