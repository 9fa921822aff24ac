/** Item history, the trash and schedules as operations of the OpenAPI document. */
import { z } from "zod";
import { DashboardItem } from "../contract/responses";
import { itemPatchSchema } from "../contract/items";
import {
  RestoreReport,
  RETENTION_TEXT,
  Revision,
  RevisionSummary,
  scheduleInputSchema,
  TrashEntry,
  UpcomingChange,
} from "../contract/history";
import { MAX_SCHEDULED, SCHEDULE_HORIZON_DAYS, TRASH_DAYS } from "../contract/history-limits";
import { P } from "../openapi/params";
import { operation, type Operation, type Param } from "../openapi/registry";
import { PAGING, withSiteId } from "./operations";

const revisionId: Param = {
  name: "revisionId",
  in: "path",
  description: "The revision's id (`rv_…`).",
  schema: z.string(),
  required: true,
};
const trashItemId: Param = {
  name: "itemId",
  in: "path",
  description: "The deleted item's id (`it_…`).",
  schema: z.string(),
  required: true,
};
const json = (description: string, schema: z.ZodType) => ({ description, schema, headers: "json" }) as const;
const paged = <T extends z.ZodType>(key: string, entry: T) =>
  z.strictObject({ [key]: z.array(entry), page: z.int(), limit: z.int(), total: z.int(), totalPages: z.int() });
const ITEM = "/sites/{siteId}/collections/{slug}/items/{id}";

const historyOps: Operation[] = [
  operation({
    id: "listItemRevisions",
    method: "get",
    path: `${ITEM}/revisions`,
    tag: "History",
    summary: "An item's revisions, newest first",
    description: `Every change of an item (create, edit, publish, unpublish, restore, schedule, scheduled publish, delete, a removed field) leaves a revision written in the same transaction: who, when, which fields changed and the item as it was after. ${RETENTION_TEXT}`,
    auth: "siteKey",
    params: [P.slug, P.itemId, ...PAGING],
    responses: { 200: json("One page of revisions.", paged("revisions", RevisionSummary)) },
    errors: ["not_found"],
  }),
  operation({
    id: "getItemRevision",
    method: "get",
    path: `${ITEM}/revisions/{revisionId}`,
    tag: "History",
    summary: "One revision with the item's values as they were",
    auth: "siteKey",
    params: [P.slug, P.itemId, revisionId],
    responses: { 200: json("The revision.", z.strictObject({ revision: Revision })) },
    errors: ["not_found"],
  }),
  operation({
    id: "restoreItemRevision",
    method: "post",
    path: `${ITEM}/revisions/{revisionId}/restore`,
    tag: "History",
    summary: "Make a revision's values and slug the item's current ones",
    description:
      "Writes a new `restore` revision; older ones are never changed. The status does not change. Values today's fields no longer accept (a removed field, media or an item that no longer exists) are left out and listed in `restore.dropped`. 409 when the revision's slug is now another item's.",
    auth: "siteKey",
    params: [P.slug, P.itemId, P.ifMatch, revisionId],
    responses: {
      200: json(
        "The item as restored, the revision the restore wrote.",
        z.strictObject({ item: DashboardItem, revision: RevisionSummary, restore: RestoreReport }),
      ),
    },
    errors: ["not_found", "conflict", "precondition_failed"],
  }),
  operation({
    id: "listTrash",
    method: "get",
    path: "/sites/{siteId}/trash",
    tag: "History",
    summary: `Items deleted in the last ${TRASH_DAYS} days, newest first`,
    auth: "siteKey",
    params: [...PAGING],
    responses: { 200: json("One page of deleted items.", paged("items", TrashEntry)) },
    errors: ["not_found"],
  }),
  operation({
    id: "restoreDeletedItem",
    method: "post",
    path: "/sites/{siteId}/trash/{itemId}/restore",
    tag: "History",
    summary: "Undo a delete: the item comes back with its id, slug, status and publish date",
    description:
      "A published item is published again with every effect of a publish. 404 for an item that is not in the trash; 409 when its slug is now another item's or its collection was deleted.",
    auth: "siteKey",
    params: [trashItemId],
    responses: { 200: json("The item, back.", z.strictObject({ item: DashboardItem, restore: RestoreReport })) },
    errors: ["not_found", "conflict"],
  }),
  operation({
    id: "savePendingChanges",
    method: "put",
    path: `${ITEM}/pending`,
    tag: "History",
    summary: "Save changes to a published item without publishing them",
    description:
      "The body is PATCH's (`data` merges into the pending version, or the live one when there is none; `null` clears a field). The public version (content API, rendered pages, sitemap, feeds, search) stays as it is until `POST …/publish`, which makes the pending changes live; the crawler preview (`GET …/ssr/preview?item=`) shows them. `PATCH` itself stays live at once. 409 on a draft (save it directly) or for a slug another item uses.",
    auth: "siteKey",
    params: [P.slug, P.itemId, P.ifMatch],
    body: itemPatchSchema,
    responses: { 200: json("The item, with `pendingChanges`.", z.strictObject({ item: DashboardItem })) },
    errors: ["not_found", "conflict", "precondition_failed"],
  }),
  operation({
    id: "discardPendingChanges",
    method: "delete",
    path: `${ITEM}/pending`,
    tag: "History",
    summary: "Discard a published item's pending changes",
    description: "What was discarded stays in the item's history (the `pending` revision before the `discard` one).",
    auth: "siteKey",
    params: [P.slug, P.itemId, P.ifMatch],
    responses: { 200: json("The item.", z.strictObject({ item: DashboardItem })) },
    errors: ["not_found", "precondition_failed"],
  }),
  operation({
    id: "putItemSchedule",
    method: "put",
    path: `${ITEM}/schedule`,
    tag: "History",
    summary: "Publish or unpublish an item at a time",
    description: `At that time the site's alarm publishes (or unpublishes) the item with every effect of doing it by hand: cached answers retired, sitemap and feeds rebuilt, search index updated, a revision recorded. A scheduled publish sets \`publishedAt\` to the scheduled time. Applied once, also after downtime. 400 for a time in the past, more than ${SCHEDULE_HORIZON_DAYS / 365} years ahead, an unpublish not after the publish, a publish time on a published item, or an unknown time zone; 409 past ${MAX_SCHEDULED} scheduled items per site. A manual publish cancels the scheduled publish and keeps the unpublish time; a manual unpublish cancels both unless \`?keepSchedule=true\`.`,
    auth: "siteKey",
    params: [P.slug, P.itemId, P.ifMatch],
    body: scheduleInputSchema,
    responses: { 200: json("The item with its schedule.", z.strictObject({ item: DashboardItem })) },
    errors: ["not_found", "conflict", "precondition_failed"],
  }),
  operation({
    id: "deleteItemSchedule",
    method: "delete",
    path: `${ITEM}/schedule`,
    tag: "History",
    summary: "Cancel an item's schedule",
    auth: "siteKey",
    params: [P.slug, P.itemId, P.ifMatch],
    responses: { 200: json("The item.", z.strictObject({ item: DashboardItem })) },
    errors: ["not_found", "precondition_failed"],
  }),
  operation({
    id: "listUpcomingChanges",
    method: "get",
    path: "/sites/{siteId}/schedule",
    tag: "History",
    summary: "What the schedule publishes or unpublishes next, earliest first",
    auth: "siteKey",
    params: [{ name: "limit", in: "query", description: "Default 10; clamped to 1..50.", schema: z.int().default(10) }],
    responses: { 200: json("The next scheduled changes.", z.strictObject({ upcoming: z.array(UpcomingChange) })) },
    errors: ["not_found"],
  }),
];

export const historyOperations: Operation[] = historyOps.map((op) => withSiteId(op));
