/**
 * What the API answers, in zod: the components of the OpenAPI document and, through
 * it, what the contract test holds every real answer to. Top-level envelopes are
 * strict, so an answer with an undocumented key fails the test.
 */
import { z } from "zod";
import { AccountView, MembershipView } from "./accounts";
import { FIELD_TYPES } from "./field-types";
import { fieldSchema } from "./fields";
import { ERROR_STATUS, type ErrorCode } from "./errors";
import { PLANS } from "./plans";
import { MEDIA_TYPES } from "./limits";
import { ROLES } from "./principal";
import { SCHEMA_TYPES, seoSchema } from "./ssr";
import { PendingChangesView, ScheduleView } from "./history";

const instant = z.string().describe("ISO 8601 instant, UTC");
const data = z
  .record(z.string(), z.unknown())
  .describe("Field values by key; their shapes follow the field types (README: Field types and values).");

export const MediaRef = z
  .strictObject({
    mediaId: z.string(),
    url: z.string(),
    srcset: z
      .string()
      .describe(
        "Uploaded images: the service's own variants at each real width (never wider than the original). Images by URL: resized widths through `/cdn-cgi/image/` when the image's host is one of the site's `imageResizingHosts`; otherwise the original only (with its width when known).",
      ),
    alt: z.string(),
    width: z.int().optional(),
    height: z.int().optional(),
    focal: z
      .strictObject({ x: z.number(), y: z.number() })
      .optional()
      .describe("When set: the point (0–1 across, 0–1 down) crops keep in view; rendered pages use it as `object-position`."),
  })
  .describe("A registered image or video.");

export const PublicItem = z
  .strictObject({
    id: z.string(),
    slug: z.string(),
    collection: z.string(),
    publishedAt: instant,
    updatedAt: instant,
    data,
    locale: z.string().optional().describe("Read with `locale`: the locale of the values."),
    alternates: z
      .array(z.strictObject({ locale: z.string(), slug: z.string() }))
      .optional()
      .describe("Read with `locale`: every locale the item exists in (this one included) and its slug there, the primary first."),
    fallbacks: z
      .record(z.string(), z.string())
      .optional()
      .describe("Read with `locale`: the localized fields whose value came from another locale of the chain, and which."),
  })
  .describe("A published item: media expanded to MediaRef, references resolved one level deep.");
export type PublicItem = z.infer<typeof PublicItem>;

export const SearchIndexView = z.strictObject({
  state: z.enum(["pending", "indexed", "failed"]),
  reason: z.string().optional(),
  model: z.string().optional(),
  indexedAt: instant.optional(),
});

export const DashboardItem = z
  .strictObject({
    id: z.string(),
    revision: z
      .int()
      .describe(
        'The item\'s version: the number of its newest revision. Send it back as `If-Match: "r<revision>"` with a change, and the change is refused (412 `precondition_failed`) if the item changed since: another tab, another person or its schedule.',
      ),
    slug: z.string(),
    collection: z.string(),
    status: z.enum(["draft", "published"]),
    publishedAt: instant.nullable(),
    createdAt: instant,
    updatedAt: instant,
    createdBy: z
      .string()
      .nullable()
      .describe(
        "Who created it: the account (`ac_…`) or API key id, or null (the operator, a site admin key, or an item from before accounts). A role that may change only its own items (Contributor, Author) may change this one when it is theirs.",
      ),
    data,
    searchIndex: SearchIndexView.nullable().describe("The item's place in the search index; null for drafts and below Pro."),
    schedule: ScheduleView.nullable().describe("When the site publishes or unpublishes it by itself; null when not scheduled."),
    pendingChanges: PendingChangesView.nullable().describe(
      "A published item's saved next version (`PUT …/pending`), not public until published; null when none. `data` and `slug` above stay the live version.",
    ),
  })
  .describe("An item as the dashboard sees it: drafts included, values as stored.");
export type DashboardItem = z.infer<typeof DashboardItem>;

const fieldKeyOrNull = z.string().nullable();

export const Collection = z.strictObject({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  fields: z.array(fieldSchema),
  createdAt: instant,
  updatedAt: instant,
  titleField: fieldKeyOrNull.describe(
    "The key of the field that names an item: a text field called `title`, `name` or `headline` (in that order, any case), else the first text field; null without text fields. Its value is the item's title in the dashboard, its search text and, unless the capture's `seo.titleField` says otherwise, its SEO title.",
  ),
  seoDefaults: z
    .strictObject({
      titleField: fieldKeyOrNull,
      descriptionField: fieldKeyOrNull.describe(
        "A field called description, summary, excerpt, subtitle or intro, else the rich text body.",
      ),
      imageField: fieldKeyOrNull.describe("The first image field."),
      authorField: fieldKeyOrNull.describe("A reference or text field called author, authors, writer or byline."),
    })
    .describe("The fields the SEO tags of rendered pages take when the capture's `seo` settings name none (README: SEO output)."),
});

const entitlements = {
  features: z.strictObject({ advancedLists: z.boolean(), serverRendering: z.boolean() }),
  flags: z.strictObject({ aiSearch: z.boolean() }),
};

export const Site = z.strictObject({
  id: z.string(),
  name: z.string(),
  workspaceId: z.string(),
  plan: z.enum(PLANS),
  token: z.string().describe("The public token (pk_…) of the content API and x-service-token."),
  imageResizingHosts: z
    .array(z.string())
    .describe("Image hosts with Cloudflare Image Resizing: only their images get resized srcset candidates (PATCH the site to set)."),
  ...entitlements,
  createdAt: instant,
  updatedAt: instant,
});

export const CreatedSite = Site.extend({
  adminKey: z.string().describe("The site's admin key (sk_…), shown only in this answer."),
});

/**
 * What the caller may do in the site or workspace just read: the dashboard hides or disables what
 * is missing. It describes, it does not grant: every call is still checked (403 `forbidden`).
 */
export const CallerAccess = z
  .strictObject({
    role: z
      .enum([...ROLES, "key:read", "key:full", "operator"])
      .describe("The caller's role here; `key:read`/`key:full` for an API key, `owner` for a site admin key and its sessions."),
    permissions: z
      .array(z.string())
      .describe("The permissions of README's role table the caller holds here; a `….own` one holds for their own items only."),
  })
  .describe("What the caller may do here, so a client can hide what it cannot; the API stays the authority.");

export const Workspace = z.strictObject({
  id: z.string(),
  name: z.string(),
  plan: z.enum(PLANS),
  siteIds: z.array(z.string()),
  createdAt: instant,
  updatedAt: instant,
});

export const FieldTypes = z
  .record(z.string(), z.record(z.string(), z.enum(FIELD_TYPES)))
  .describe("Field types by collection slug, then by field key.");

export const OptionLabels = z
  .record(z.string(), z.record(z.string(), z.string()))
  .describe(
    "Option fields' labels: by field key, each option's value to the label people see (the value itself when the option has none). Item data holds the value; show the label.",
  );

export const CollectionLabels = z
  .record(z.string(), OptionLabels)
  .describe("Option labels by collection slug, for the same collections as `schema`; a collection without option fields is left out.");

const refreshResult = z.strictObject({
  at: instant,
  ok: z.boolean(),
  trigger: z.enum(["capture", "manual", "webhook", "nightly"]),
  error: z.string().optional(),
});

export const ProxyKey = z.strictObject({
  proxyKey: z
    .string()
    .describe(
      "The site's proxy key (`px_…`): the reverse-proxy Worker sends it as `x-proxy-key` beside each visitor's address (`x-visitor-ip`), so rendered pages are limited per visitor instead of all as the proxy (README \"Rate limits\"). Keep it secret, as the proxy's `PROXY_KEY`. It does not change; it is derived from the deployment's secret and the site id.",
    ),
});

const RichResultItem = z.strictObject({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  missing: z.array(z.string()).describe("Required properties without a value."),
  missingRecommended: z.array(z.string()),
  expired: z.boolean().describe("Past its closing date (JobPosting `validThrough`) or end (Event `endDate`, else `startDate`)."),
});

/** The SEO Engine's rich results card (docs/rich-results.md): type, fields, and which items are eligible. */
export const RichResultsReport = z.strictObject({
  collection: z.string().describe("The captured collection, whose item pages carry the JSON-LD."),
  type: z.enum(SCHEMA_TYPES),
  chosen: z.boolean().describe("false: the type is proposed from the fields (no choice saved yet)."),
  proposedType: z.enum(SCHEMA_TYPES),
  types: z.array(z.enum(SCHEMA_TYPES)),
  properties: z.array(
    z.strictObject({
      path: z.string().describe("The JSON-LD property (`offers.price`), also its key in `fields`."),
      label: z.string(),
      need: z.enum(["required", "recommended"]),
      accepts: z.array(z.enum(FIELD_TYPES)).describe("Field types that can fill it."),
      field: z.string().nullable().describe("The field that fills it, chosen or proposed; null: none."),
      automatic: z
        .boolean()
        .describe(
          "Filled from the page itself (title, description, image, publish time, publisher) or, for a currency, the price field's, when no field is.",
        ),
      missingIn: z.int().describe("Checked items without a value for it."),
    }),
  ),
  items: z.strictObject({
    total: z.int(),
    checked: z.int().describe("The newest published items checked (at most 500)."),
    eligible: z.int(),
    expired: z.int().describe("Checked items past their end (a job's closing date, an event's end): not eligible."),
  }),
  notEligible: z
    .array(RichResultItem.omit({ missingRecommended: true }))
    .describe("Up to 50 checked items that lack a required property or have expired, with the properties."),
  expiredNoindex: z.boolean().describe("Expired jobs and past events carry `noindex` (chosen on PUT)."),
  item: RichResultItem.extend({ eligible: z.boolean() })
    .optional()
    .describe("With `?item=`: that item (any status, as the crawler preview renders it)."),
});

export const Capture = z.strictObject({
  pageUrl: z.string(),
  publicUrl: z.string(),
  basePath: z.string(),
  collection: z.string().nullable(),
  showsList: z.boolean(),
  seo: seoSchema.describe("The SEO choices the capture was given; a missing one is picked automatically."),
  webhookSigning: z.enum(["configured", "off"]),
  capturedAt: instant,
  refreshedAt: instant.nullable(),
  lastRefresh: refreshResult.nullable(),
  nextRefreshAt: instant.nullable(),
  webhookUrl: z
    .string()
    .describe(
      "Where the builder posts: `/hooks/ssr/{siteId}`, signed (see webhookSecret). A capture made before the secret left the URL keeps its `/hooks/ssr/{siteId}/{secret}` form until the secret is rotated (that form is shown only to callers who see webhookSecret).",
    ),
  webhookSecret: z
    .string()
    .optional()
    .describe(
      "The Standard Webhooks signing secret (`whsec_…`): the HMAC-SHA256 key is the base64 text after `whsec_`, decoded to bytes; sign `{webhook-id}.{webhook-timestamp}.{body}` with it (the `standardwebhooks` package does all of this). Present only for callers who may change the capture (`seo.manage`): a Viewer or a read-only API key is not shown it.",
    ),
  webhookLegacyUrl: z.boolean().describe("Whether the old URL form with the secret in its path is still accepted."),
  documents: z.strictObject({
    paths: z.array(z.string()),
    lastBuild: z.strictObject({ at: instant, ms: z.number(), urls: z.int(), feedItems: z.int(), bytes: z.int() }).nullable(),
  }),
  warnings: z
    .array(
      z.strictObject({
        widget: z.string().describe('The widget as written in the page: `data-oc-list="<collection slug>"`.'),
        field: z.string().optional().describe("The field the widget sorts or filters by, when the warning is about one."),
        message: z.string().describe("What is wrong and how to fix it, in words."),
      }),
    )
    .describe(
      "List widgets of the captured page that show no items as written: a collection the site does not have, or a sort or filter on a field that is not indexed (or not a field at all). The capture is stored and served all the same; the list renders empty, as the content API would refuse its query. Checked against the collections as they are now.",
    ),
  page: z.strictObject({
    title: z.string(),
    description: z.string(),
    widgets: z.array(z.strictObject({ collection: z.string(), query: z.record(z.string(), z.string()) })),
    itemScopes: z.boolean(),
  }),
});

export const CustomHostname = z.strictObject({
  hostname: z.string(),
  cnameTarget: z.string(),
  sslStatus: z.enum(["pending_validation", "pending_issuance", "active"]),
  ownershipVerification: z
    .strictObject({
      type: z.literal("txt"),
      name: z
        .string()
        .describe("Where the TXT record goes: `_oc-challenge.<hostname>`, or Cloudflare for SaaS's `_cf-custom-hostname.<hostname>`."),
      value: z.string().describe("The value only this site is given for this hostname; it never changes for them."),
      verified: z.boolean().describe("Whether the record was seen through DNS over HTTPS."),
    })
    .optional()
    .describe(
      "The DNS proof of control: the hostname goes active only once this TXT record is published, in addition to the CNAME. Absent only on hostnames active before the proof existed.",
    ),
  missing: z.array(z.string()).optional().describe("What the certificate still waits for; only while pending."),
  createdAt: instant,
  updatedAt: instant,
});

/** The one error envelope, narrowed to the codes an answer of one status may carry. */
export function errorEnvelope(codes: readonly ErrorCode[]): z.ZodType {
  const [first, ...rest] = codes;
  if (!first) throw new Error("an error envelope needs a code");
  return z.strictObject({
    error: z.strictObject({
      code: z.enum([first, ...rest]),
      message: z.string(),
      details: z.unknown().optional().describe("Machine-readable specifics; validation errors list issues[{path, message}]."),
    }),
  });
}

export const SearchStatus = z.strictObject({
  enabled: z.boolean(),
  model: z.string(),
  pending: z.int(),
  indexed: z.int(),
  failed: z.int(),
});

export const SiteStats = z.strictObject({
  collections: z.int(),
  published: z.int(),
  drafts: z.int(),
  recent: z
    .array(
      z.strictObject({
        id: z.string(),
        slug: z.string(),
        collection: z.string(),
        status: z.enum(["draft", "published"]),
        title: z.string().nullable().describe("The item's first text field"),
        updatedAt: instant.describe("Its last change: the live version's, or its pending changes' when they are newer."),
        pendingChanges: z.boolean().describe("A published item with pending changes (not public until published)."),
      }),
    )
    .describe("The latest changed items of any collection, newest first (at most 8); pending changes count as changes."),
  widgetSeen: z
    .strictObject({
      at: instant.describe("When it was reported (kept at most once an hour)."),
      page: z.string().describe("The page's address, without its query or fragment."),
    })
    .nullable()
    .describe("Where the embed script last reported rendering a widget (`POST /v1/{token}/seen`); null until it has."),
});

export const MediaEntry = MediaRef.extend({
  name: z.string().optional().describe("Uploaded files: the file's name (its extension is the type's)."),
  type: z.enum(MEDIA_TYPES).optional().describe("Uploaded files: the type, read from the file's own bytes."),
  bytes: z.int().optional().describe("Uploaded files: the stored size."),
  focal: z
    .strictObject({ x: z.number(), y: z.number() })
    .nullable()
    .optional()
    .describe("The point (0–1 across, 0–1 down) crops keep in view; null for the centre."),
  createdAt: instant,
  usedBy: z
    .array(z.strictObject({ collection: z.string(), itemId: z.string(), slug: z.string(), field: z.string() }))
    .describe("Items whose image or video fields show this entry (at most 20)."),
});

export const Session = z.strictObject({
  kind: z.enum(["site", "operator", "account"]),
  siteId: z.string().optional().describe("The site a site owner's session belongs to."),
  createdAt: instant,
  expiresAt: instant.describe("When the session ends unless used before (12 h idle), never after 7 days from sign-in."),
  account: AccountView.optional().describe("The person an account session signs in (kind `account`)."),
  memberships: z.array(MembershipView).optional().describe("The workspaces the account belongs to and its role in each (kind `account`)."),
});

/** Named components of the document, by name. */
export const COMPONENTS = {
  MediaRef,
  PublicItem,
  SearchIndexView,
  DashboardItem,
  Collection,
  Site,
  CreatedSite,
  Workspace,
  CallerAccess,
  FieldTypes,
  OptionLabels,
  CollectionLabels,
  Capture,
  RichResultsReport,
  CustomHostname,
  SearchStatus,
  SiteStats,
  MediaEntry,
  Session,
} as const;

export const ALL_ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];
