/** The public content API (`/v1/:token/...`) as operations of the OpenAPI document. */
import { z } from "zod";
import { DEFAULT_LIMIT, FILTER_OPS, MAX_LIMIT } from "../shared/list-params";
import { RELATED_LIMIT, SEARCH_LIMIT, SEEN_PAGE_MAX } from "../contract/limits";
import { CollectionLabels, FieldTypes, OptionLabels, PublicItem } from "../contract/responses";
import { P } from "../openapi/params";
import * as examples from "../openapi/examples";
import { operation, type Param } from "../openapi/registry";

const tag = "Content API";
const query = (name: string, description: string, schema: z.ZodType): Param => ({ name, in: "query", description, schema });
const limit = (fallback: number, max: number) =>
  query("limit", `Default ${fallback}; clamped to 1..${max}; a non-numeric value means ${fallback}.`, z.int().default(fallback));
const fields = query(
  "fields",
  "Comma-separated field keys: each item's `data` keeps only these (`id`, `slug` and the times stay); without it, every field. An unknown key is 400 naming the collection's fields.",
  z.string(),
);
const localeParams: Param[] = [
  query(
    "locale",
    "One of the site's locales (BCP 47, any case). Each item's values are that locale's, each localized field falling back along the locale's chain; only items translated into it are listed, and `itemSlug` is the slug in it. Each item then says `locale`, its `alternates` and its `fallbacks`. Without it: the items' own values, exactly as before locales. An unknown locale is 400 naming the site's.",
    z.string(),
  ),
  query(
    "fallback",
    "`false`: only the locale's own values (a field it has not translated is left out), in filters, sort and search too. Default `true`.",
    z.enum(["true", "false"]),
  ),
];
const searchLocale = query(
  "locale",
  "One of the site's locales. The search model is English-only and the index holds the items' own values: in a secondary locale the answer is empty, without calling the model. An unknown locale is 400.",
  z.string(),
);
const notModified = { description: "Not modified: the `If-None-Match` ETag still matches.", headers: "content" } as const;

const list = z.strictObject({
  items: z.array(PublicItem),
  page: z.int().describe("The effective page."),
  limit: z.int().describe("The effective limit."),
  total: z.int(),
  totalPages: z.int(),
  labels: OptionLabels.optional().describe("Present when the collection has option fields: each option's value to its label."),
});

export const contentOperations = [
  operation({
    id: "listItems",
    method: "get",
    path: "/v1/{token}/collections/{slug}/items",
    tag,
    summary: "List published items",
    description:
      "Published items only, newest first by default. `filter[...]` and `search` need the Pro plan (403 `plan_required`, checked before the cache). Cached at the edge per exact URL; invalidated by every change.",
    auth: "publicToken",
    params: [
      P.token,
      P.slug,
      query("page", "1-based; missing or invalid means 1.", z.int().default(1)),
      limit(DEFAULT_LIMIT, MAX_LIMIT),
      query(
        "sort",
        "Comma-separated keys, `-` for descending: indexed fields plus `publishedAt`, `updatedAt`, `slug`. Default `-publishedAt`.",
        z.string(),
      ),
      {
        name: "filter",
        in: "query",
        style: "deepObject",
        description: `\`filter[key]=v\` or \`filter[key][op]=v\` with op in ${FILTER_OPS.join(", ")} (\`in\` takes up to 50 comma-separated values); indexed fields only. Pro plan.`,
        schema: z.record(z.string(), z.union([z.string(), z.partialRecord(z.enum(FILTER_OPS), z.string())])),
      },
      query(
        "search",
        "Substring over the indexed text and link fields, case- and accent-insensitive (cafe finds Café, lodz finds Łódź), up to 200 characters. Pro plan.",
        z.string().max(200),
      ),
      fields,
      ...localeParams,
      P.ifNoneMatch,
    ],
    responses: {
      200: { description: "A page of published items.", schema: list, headers: "content", example: examples.list },
      304: notModified,
    },
    errors: ["bad_request", "plan_required", "not_found"],
    errorExamples: {
      bad_request: examples.unknownFilter,
      plan_required: {
        message: "Filtering and search need the Pro plan or above.",
        details: { feature: "advancedLists", requiredPlan: "pro" },
      },
    },
  }),
  operation({
    id: "getItem",
    method: "get",
    path: "/v1/{token}/collections/{slug}/items/{itemSlug}",
    tag,
    summary: "Read one published item",
    description:
      "A draft or missing item is 404. A slug a published item had before it was renamed answers 301 with `Location` naming its current slug (same query), which a client's fetch follows; once another item takes that slug, or the item is unpublished or deleted, it leads nowhere.",
    auth: "publicToken",
    params: [P.token, P.slug, P.itemSlug, fields, ...localeParams, P.ifNoneMatch],
    responses: {
      200: {
        description: "The item.",
        schema: z.strictObject({
          item: PublicItem,
          labels: OptionLabels.optional().describe("Present when the collection has option fields: each option's value to its label."),
        }),
        headers: "content",
        example: { item: examples.publicItem },
      },
      301: {
        description:
          "The item's old slug; with a secondary `locale`, the item's own slug or an old slug of its translation there: `Location` names where it is now.",
        headers: "redirect",
      },
      304: notModified,
    },
    errors: ["bad_request", "not_found"],
  }),
  operation({
    id: "getCollectionSchema",
    method: "get",
    path: "/v1/{token}/collections/{slug}/schema",
    tag,
    summary: "Field types and option labels of a collection",
    description:
      'The field types of the collection and of every collection its reference fields point to: what a renderer (such as the embed script) needs to tell rich text from plain text; and their option fields\' labels (`data-oc-format="label"`). Cached and invalidated like the items.',
    auth: "publicToken",
    params: [P.token, P.slug, P.ifNoneMatch],
    responses: {
      200: {
        description: "Field types by collection.",
        schema: z.strictObject({
          schema: FieldTypes,
          labels: CollectionLabels,
          locales: z
            .array(z.string())
            .optional()
            .describe("Present when the site has locales: their codes, the primary first (what `locale` takes)."),
        }),
        headers: "content",
        example: examples.schema,
      },
      304: notModified,
    },
    errors: ["not_found"],
  }),
  operation({
    id: "search",
    method: "get",
    path: "/v1/{token}/search",
    tag,
    summary: "Semantic search",
    description:
      "Published items by cosine similarity to `q`, best first; matches below the model's relevance threshold are dropped and a non-English query gets no results. Pro plan.",
    auth: "publicToken",
    params: [
      P.token,
      query("q", "The search text; required, not blank.", z.string().min(1)),
      query("collection", "Only items of this collection.", z.string()),
      limit(SEARCH_LIMIT.fallback, SEARCH_LIMIT.max),
      searchLocale,
      P.ifNoneMatch,
    ],
    responses: {
      200: {
        description: "Results, best first.",
        schema: z.strictObject({ results: z.array(z.strictObject({ item: PublicItem, score: z.number() })) }),
        headers: "content",
        example: examples.search,
      },
      304: notModified,
    },
    errors: ["bad_request", "plan_required", "not_found", "embedding_failed"],
  }),
  operation({
    id: "relatedItems",
    method: "get",
    path: "/v1/{token}/collections/{slug}/items/{itemSlug}/related",
    tag,
    summary: "Related items",
    description: "Items of the same collection closest to this one, the item itself excluded. Pro plan.",
    auth: "publicToken",
    params: [P.token, P.slug, P.itemSlug, limit(RELATED_LIMIT.fallback, RELATED_LIMIT.max), searchLocale, P.ifNoneMatch],
    responses: {
      200: { description: "Related items, closest first.", schema: z.strictObject({ items: z.array(PublicItem) }), headers: "content" },
      304: notModified,
    },
    errors: ["plan_required", "not_found"],
  }),
  operation({
    id: "reportWidgetSeen",
    method: "post",
    path: "/v1/{token}/seen",
    tag,
    summary: "Report that a widget rendered on a page",
    description:
      "Sent by the embed script (`navigator.sendBeacon`, once an hour per browser) after it renders a widget; the body is the page's address as text. The dashboard's Get started checklist ticks “Put the widget on your page” from it (`widgetSeen` in the site's stats). Only the origin and path are kept, at most once an hour per site; the token is the public one, so it needs no other credential and is not rate limited (each isolate passes a site's report on at most once in 10 minutes).",
    auth: "none",
    params: [P.token],
    rawBody: {
      media: ["text/plain"],
      description: `The page's http(s) address, at most ${SEEN_PAGE_MAX} characters once its query and fragment are dropped.`,
    },
    responses: { 204: { description: "Noted (or already noted this hour).", headers: "json" } },
    errors: ["bad_request", "not_found", "payload_too_large"],
  }),
];
