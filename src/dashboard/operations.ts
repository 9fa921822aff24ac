/** The dashboard API (operator token, or a site's admin key under /sites/:siteId) as operations of the OpenAPI document. */
import { z } from "zod";
import { collectionInputSchema } from "../contract/fields";
import { workspaceCreateByAccount } from "../contract/workspaces";
import { batchInputSchema, itemInputSchema, itemPatchSchema, publishItemsSchema } from "../contract/items";
import { mediaInputSchema, mediaPatchSchema, sitePatchSchema, siteCreate, workspaceCreate } from "../contract/sites";
import { DASHBOARD_SEARCH_MAX, MEDIA_IDS_MAX } from "../contract/limits";
import { PlanChange } from "../contract/plan-schemas";
import { DEFAULT_LIMIT, FILTER_OPS, MAX_LIMIT } from "../shared/list-params";
import {
  CallerAccess,
  Collection,
  CreatedSite,
  DashboardItem,
  MediaEntry,
  MediaRef,
  SearchStatus,
  Site,
  SiteStats,
  Workspace,
} from "../contract/responses";
import { P } from "../openapi/params";
import * as examples from "../openapi/examples";
import { operation, type Operation, type Param } from "../openapi/registry";

/** A dashboard list's paging, read as the content API reads it. */
export const PAGING: Param[] = [
  { name: "page", in: "query", description: "1-based; missing or invalid means 1.", schema: z.int().default(1) },
  {
    name: "limit",
    in: "query",
    description: `Default ${DEFAULT_LIMIT}; clamped to 1..${MAX_LIMIT}.`,
    schema: z.int().default(DEFAULT_LIMIT),
  },
];

const json = (description: string, schema: z.ZodType, example?: unknown) => ({ description, schema, headers: "json", example }) as const;
const workspace = z.strictObject({ workspace: Workspace });
const site = z.strictObject({ site: Site });
const siteRead = z.strictObject({ site: Site, access: CallerAccess, planChange: PlanChange });
const collection = z.strictObject({ collection: Collection });
const item = z.strictObject({ item: DashboardItem });

const operatorOps: Operation[] = [
  operation({
    id: "createWorkspace",
    method: "post",
    path: "/workspaces",
    tag: "Workspaces",
    summary: "Create a workspace",
    description:
      "The operator names the plan. A signed-in account sends only `name`: the workspace starts on the Free plan with them as its Owner (at most 50 workspaces per account).",
    auth: "operator",
    body: z.union([workspaceCreate, workspaceCreateByAccount]),
    responses: { 201: json("Created.", workspace) },
    errors: ["conflict"],
  }),
  operation({
    id: "createSite",
    method: "post",
    path: "/sites",
    tag: "Sites",
    summary: "Create a site",
    description:
      "The operator: without `workspaceId` a one-site workspace is created with `plan` (default `starter`). A signed-in member with `site.create` (Owner, Administrator): `workspaceId` is required, and the plan's site limit applies (403 `plan_required`). The admin key is shown only in this answer; the site stores its SHA-256.",
    auth: "operator",
    body: siteCreate,
    responses: { 201: json("Created, with the admin key.", z.strictObject({ site: CreatedSite }), { site: examples.createdSite }) },
    errors: ["not_found", "plan_required"],
  }),
  operation({
    id: "updateSite",
    method: "patch",
    path: "/sites/{siteId}",
    tag: "Sites",
    summary: "Rename a site or set its image-resizing hosts",
    description:
      "The operator, or the site's own admin key or session (the dashboard's Settings). Setting `imageResizingHosts` rewrites the srcset of every published image at once.",
    auth: "siteKey",
    params: [P.siteId],
    body: sitePatchSchema,
    responses: { 200: json("The site.", site) },
    errors: ["not_found"],
  }),
];

/** Under /sites/{siteId}, with the site's admin key or the operator token. */
const siteOps: Operation[] = [
  operation({
    id: "getSite",
    method: "get",
    path: "/sites/{siteId}",
    tag: "Sites",
    summary: "Read a site, its plan and what the plan allows",
    description: "`access` says what the caller may do on this site (its role and permissions), so a client can hide the rest.",
    auth: "siteKey",
    responses: { 200: json("The site.", siteRead) },
    errors: ["not_found"],
  }),
  operation({
    id: "getSearchStatus",
    method: "get",
    path: "/sites/{siteId}/search",
    tag: "Search",
    summary: "The state of the site's search index",
    auth: "siteKey",
    responses: {
      200: json("Counts of items by index state.", z.strictObject({ search: SearchStatus })),
    },
    errors: ["not_found"],
  }),
  operation({
    id: "listCollections",
    method: "get",
    path: "/sites/{siteId}/collections",
    tag: "Collections",
    summary: "List collections",
    auth: "siteKey",
    responses: { 200: json("Every collection of the site.", z.strictObject({ collections: z.array(Collection) })) },
    errors: ["not_found"],
  }),
  operation({
    id: "getCollection",
    method: "get",
    path: "/sites/{siteId}/collections/{slug}",
    tag: "Collections",
    summary: "Read a collection",
    auth: "siteKey",
    params: [P.slug],
    responses: { 200: json("The collection.", collection, { collection: examples.collection }) },
    errors: ["bad_request", "not_found"],
  }),
  operation({
    id: "putCollection",
    method: "put",
    path: "/sites/{siteId}/collections/{slug}",
    tag: "Collections",
    summary: "Create or update a collection",
    description:
      "Changing a field's type or target while items hold values, or making a field required while items lack it, is 409. Removing a field deletes its values from every item. Send `If-None-Match: *` to create only: when the slug is taken the answer is 409 `conflict` and nothing changes.",
    auth: "siteKey",
    params: [
      P.slug,
      {
        name: "if-none-match",
        in: "header",
        description: "`*`: create only; an existing collection with this slug is never replaced (409 `conflict`).",
        schema: z.literal("*"),
      },
    ],
    body: collectionInputSchema,
    responses: { 200: json("Updated.", collection), 201: json("Created.", collection, { collection: examples.collection }) },
    errors: ["not_found", "conflict"],
    errorExamples: { bad_request: examples.invalidCollection },
  }),
  operation({
    id: "deleteCollection",
    method: "delete",
    path: "/sites/{siteId}/collections/{slug}",
    tag: "Collections",
    summary: "Delete a collection and its items",
    description: "Refused with 409 while another collection references it.",
    auth: "siteKey",
    params: [P.slug],
    responses: { 200: json("Deleted.", z.strictObject({ deleted: z.literal(true), slug: z.string() })) },
    errors: ["bad_request", "not_found", "conflict"],
  }),
  operation({
    id: "createMedia",
    method: "post",
    path: "/sites/{siteId}/media",
    tag: "Media",
    summary: "Register an image or video by URL",
    auth: "siteKey",
    body: mediaInputSchema,
    responses: { 201: json("Registered.", z.strictObject({ media: MediaRef })) },
    errors: ["not_found"],
  }),
  operation({
    id: "createItem",
    method: "post",
    path: "/sites/{siteId}/collections/{slug}/items",
    tag: "Items",
    summary: "Create an item (optionally published)",
    description: "`data` is checked against the collection's fields; a slug already used in the collection is 409.",
    auth: "siteKey",
    params: [P.slug],
    body: itemInputSchema,
    responses: { 201: json("Created.", item, { item: examples.dashboardItem }) },
    errors: ["not_found", "conflict"],
  }),
  operation({
    id: "createItems",
    method: "post",
    path: "/sites/{siteId}/collections/{slug}/items:batch",
    tag: "Items",
    summary: "Create up to 1000 items, all or nothing",
    description: "Each entry of `items` is the body of createItem.",
    auth: "siteKey",
    params: [P.slug],
    body: batchInputSchema,
    responses: { 201: json("Created.", z.strictObject({ items: z.array(DashboardItem), count: z.int() })) },
    errors: ["not_found", "conflict"],
  }),
  operation({
    id: "listDashboardItems",
    method: "get",
    path: "/sites/{siteId}/collections/{slug}/items",
    tag: "Items",
    summary: "List items, drafts included, newest first",
    auth: "siteKey",
    params: [
      P.slug,
      ...PAGING,
      { name: "status", in: "query", description: "Only drafts or only published items.", schema: z.enum(["draft", "published"]) },
      {
        name: "sort",
        in: "query",
        description:
          "One key, `-` for descending: `updatedAt`, `createdAt`, `publishedAt`, `slug` or an indexed field. Default: newest first.",
        schema: z.string(),
      },
      {
        name: "search",
        in: "query",
        description: `A substring of the slug or of any field value, ASCII case folded, or of an indexed text field with case and accents folded as the content API's search does; at most ${DASHBOARD_SEARCH_MAX} characters.`,
        schema: z.string().max(DASHBOARD_SEARCH_MAX),
      },
      {
        name: "searchIn",
        in: "query",
        description:
          "`all` (default): `search` matches any value, reading every item of the collection. `indexed`: only the slug and the indexed text fields, case and accents folded, through the substring index, so it stays fast at any size (the dashboard's items table sends it).",
        schema: z.enum(["all", "indexed"]),
      },
      {
        name: "filter",
        in: "query",
        style: "deepObject",
        description: `As the content API's list: \`filter[key]=v\` or \`filter[key][op]=v\` with op in ${FILTER_OPS.join(", ")}, over indexed fields and \`publishedAt\`, \`updatedAt\`, \`slug\`; drafts included, on every plan.`,
        schema: z.record(z.string(), z.union([z.string(), z.partialRecord(z.enum(FILTER_OPS), z.string())])),
      },
      {
        name: "missing",
        in: "query",
        description:
          "A secondary locale's code: only the items not translated into it yet (docs/locales.md). A code that is not one of the site's secondaries is 400.",
        schema: z.string(),
      },
    ],
    responses: {
      200: json(
        "A page of items.",
        z.strictObject({ items: z.array(DashboardItem), page: z.int(), limit: z.int(), total: z.int(), totalPages: z.int() }),
      ),
    },
    errors: ["bad_request", "not_found"],
  }),
  operation({
    id: "getDashboardItem",
    method: "get",
    path: "/sites/{siteId}/collections/{slug}/items/{id}",
    tag: "Items",
    summary: "Read an item",
    auth: "siteKey",
    params: [P.slug, P.itemId],
    responses: { 200: json("The item.", item) },
    errors: ["bad_request", "not_found"],
  }),
  operation({
    id: "updateItem",
    method: "patch",
    path: "/sites/{siteId}/collections/{slug}/items/{id}",
    tag: "Items",
    summary: "Change an item's slug or merge into its data",
    description: "`data` merges into the stored values; `null` clears a field.",
    auth: "siteKey",
    params: [P.slug, P.itemId, P.ifMatch],
    body: itemPatchSchema,
    responses: { 200: json("The item.", item) },
    errors: ["not_found", "conflict", "precondition_failed"],
  }),
  operation({
    id: "deleteItem",
    method: "delete",
    path: "/sites/{siteId}/collections/{slug}/items/{id}",
    tag: "Items",
    summary: "Delete an item",
    auth: "siteKey",
    params: [P.slug, P.itemId, P.ifMatch],
    responses: { 200: json("Deleted.", z.strictObject({ deleted: z.literal(true), id: z.string() })) },
    errors: ["bad_request", "not_found", "precondition_failed"],
  }),
  ...(["publish", "unpublish"] as const).map((action) =>
    operation({
      id: `${action}Item`,
      method: "post",
      path: `/sites/{siteId}/collections/{slug}/items/{id}/${action}`,
      tag: "Items",
      summary: action === "publish" ? "Publish an item" : "Take an item back to draft",
      description:
        action === "publish"
          ? "`publishedAt` is set on first publish and kept across unpublish/publish. A scheduled publish is cancelled (done now); a scheduled unpublish stays."
          : "Cancels the item's schedule unless `keepSchedule=true`.",
      auth: "siteKey",
      params: [
        P.slug,
        P.itemId,
        P.ifMatch,
        ...(action === "unpublish"
          ? [
              {
                name: "keepSchedule",
                in: "query" as const,
                description: "`true` keeps the item's schedule.",
                schema: z.enum(["true", "false"]),
              },
            ]
          : []),
      ],
      responses: { 200: json("The item.", item) },
      errors: ["bad_request", "not_found", "precondition_failed"],
    }),
  ),
  operation({
    id: "publishItems",
    method: "post",
    path: "/sites/{siteId}/collections/{slug}/items:publish",
    tag: "Items",
    summary: "Publish up to 1000 items, all or nothing",
    description:
      "Each item as publishItem publishes it, in one transaction: a draft goes live, a published item's pending changes go live, a published item without them is left as it is. An id that is not an item of the collection → 404 naming it, and nothing is published; a role that publishes only its own items → 403 for an item of someone else's. `published` counts the items that changed.",
    auth: "siteKey",
    params: [P.slug],
    body: publishItemsSchema,
    responses: {
      200: json("Published.", z.strictObject({ ids: z.array(z.string()), published: z.int(), unchanged: z.int() })),
    },
    errors: ["bad_request", "not_found"],
  }),
];

/** What the dashboard needs beyond scripts' calls: counts, the media library, key rotation, search retries. */
const dashboardScreenOps: Operation[] = [
  operation({
    id: "getSiteStats",
    method: "get",
    path: "/sites/{siteId}/stats",
    tag: "Sites",
    summary: "Counts of collections, published items and drafts, and the latest changes",
    auth: "siteKey",
    responses: { 200: json("The site at a glance.", z.strictObject({ stats: SiteStats })) },
    errors: ["not_found"],
  }),
  operation({
    id: "rotateAdminKey",
    method: "post",
    path: "/sites/{siteId}/admin-key",
    tag: "Sites",
    summary: "Replace the admin key; the old key and every dashboard session end at once",
    description: "The new key is shown only in this answer; the site stores its SHA-256.",
    auth: "siteKey",
    responses: { 200: json("The new key.", z.strictObject({ adminKey: z.string() })) },
    errors: ["not_found"],
  }),
  operation({
    id: "listMedia",
    method: "get",
    path: "/sites/{siteId}/media",
    tag: "Media",
    summary: "The media library, newest first, with the items that show each entry",
    auth: "siteKey",
    params: [
      ...PAGING,
      {
        name: "ids",
        in: "query",
        description: `Only these entries: up to ${MEDIA_IDS_MAX} comma-separated media ids (ids that name no entry are left out).`,
        schema: z.string(),
      },
    ],
    responses: {
      200: json(
        "One page of media entries.",
        z.strictObject({ media: z.array(MediaEntry), page: z.int(), limit: z.int(), total: z.int(), totalPages: z.int() }),
      ),
    },
    errors: ["bad_request", "not_found"],
  }),
  operation({
    id: "updateMedia",
    method: "patch",
    path: "/sites/{siteId}/media/{mediaId}",
    tag: "Media",
    summary: "Change a media entry's alt text or focal point (every item showing it follows)",
    description:
      "`focal` is a point of the image (`x` 0–1 across, `y` 0–1 down) that crops keep in view: MediaRefs carry it, and rendered pages and the embed bind it as the image's `object-position`. `null` puts it back in the centre.",
    auth: "siteKey",
    params: [P.mediaId],
    body: mediaPatchSchema,
    responses: { 200: json("The entry.", z.strictObject({ media: MediaRef })) },
    errors: ["not_found"],
  }),
  operation({
    id: "retrySearchIndexing",
    method: "post",
    path: "/sites/{siteId}/search/retry",
    tag: "Search",
    summary: "Queue every item whose indexing failed again",
    auth: "siteKey",
    responses: { 200: json("How many were queued, and the index now.", z.strictObject({ retried: z.int(), search: SearchStatus })) },
    errors: ["not_found"],
  }),
];

export const dashboardOperations: Operation[] = [...operatorOps, ...[...siteOps, ...dashboardScreenOps].map((op) => withSiteId(op))];

/** Every call under /sites/{siteId} takes the site's id first. */
export function withSiteId(op: Operation): Operation {
  return { ...op, params: [P.siteId, ...(op.params ?? [])] };
}
