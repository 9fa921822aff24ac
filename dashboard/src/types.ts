/**
 * The answers' shapes come from openapi.json, the service's contract (generated from its code by
 * `npm run openapi`, which also types it into generated/api.d.ts): the dashboard cannot
 * drift from the API it calls.
 */
import type { components } from "./generated/api";
import { FIELD_TYPES as SERVICE_FIELD_TYPES, INDEXABLE_TYPES, LOCALIZABLE_TYPES } from "../../src/contract/field-types";

type S = components["schemas"];
export type Session = S["Session"];
export type Site = S["Site"];
export type CallerAccess = S["CallerAccess"];
export type Collection = S["Collection"];
export type Field = Collection["fields"][number];
export type Item = S["DashboardItem"];
export type ItemData = Item["data"];
export type MediaEntry = S["MediaEntry"];
export type Stats = S["SiteStats"];

export type ItemList = S["ListDashboardItemsResponse"];
export type MediaList = S["ListMediaResponse"];
export type PublicItem = S["PublicItem"];
export type SearchStatus = S["SearchStatus"];
export type Capture = S["Capture"];
export type CustomHostname = S["CustomHostname"];
export type Plan = Site["plan"];
/** What each plan costs and adds on this deployment, and how a workspace changes plan (getSite's `planChange`). */
export type PlanChange = S["GetSiteResponse"]["planChange"];
export type PlanOffer = PlanChange["plans"][number];
export type FieldType = Field["type"];

/** The field types and which of them can be indexed: the service's own lists (src/contract/field-types.ts). */
export const FIELD_TYPES: readonly FieldType[] = SERVICE_FIELD_TYPES;
export const INDEXABLE: ReadonlySet<FieldType> = INDEXABLE_TYPES;
/** The field types a translation holds (the others are shared by every language). */
export const LOCALIZABLE: ReadonlySet<FieldType> = LOCALIZABLE_TYPES;

export const PLAN_NAMES: Record<Plan, string> = { free: "Free", starter: "Starter", pro: "Pro", seo_engine: "SEO Engine" };

export const TYPE_NAMES: Record<FieldType, string> = {
  text: "Plain text",
  richText: "Rich text",
  number: "Number",
  boolean: "Switch (yes/no)",
  date: "Date / date and time",
  link: "Link",
  image: "Image",
  video: "Video",
  reference: "Reference (one item)",
  references: "References (several items)",
  option: "Option (one of a list)",
  decimal: "Decimal / price",
  gallery: "Gallery (several images)",
};
export type RichResultsReport = S["RichResultsReport"];
