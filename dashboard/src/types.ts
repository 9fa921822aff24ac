/** Shapes of the dashboard API's answers (README.md, "Dashboard API"). */
export type Plan = "starter" | "pro" | "seo_engine";

export interface Session {
  kind: "site" | "operator";
  siteId?: string;
  createdAt: string;
  expiresAt: string;
}

export interface Site {
  id: string;
  name: string;
  workspaceId: string;
  plan: Plan;
  token: string;
  features: { advancedLists: boolean; serverRendering: boolean };
  flags: { aiSearch: boolean };
  createdAt: string;
  updatedAt: string;
}

export const FIELD_TYPES = ["text", "richText", "number", "boolean", "date", "link", "image", "video", "reference", "references"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const INDEXABLE: ReadonlySet<FieldType> = new Set(["text", "number", "boolean", "date", "link", "reference"]);

export interface Field {
  key: string;
  type: FieldType;
  indexed?: boolean;
  required?: boolean;
  collection?: string;
}

export interface Collection {
  id: string;
  slug: string;
  name: string;
  fields: Field[];
  createdAt: string;
  updatedAt: string;
}

export type ItemData = Record<string, unknown>;

export interface Item {
  id: string;
  slug: string;
  collection: string;
  status: "draft" | "published";
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  data: ItemData;
}

export interface ItemList {
  items: Item[];
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

export interface MediaEntry {
  mediaId: string;
  url: string;
  srcset: string;
  alt: string;
  width?: number;
  height?: number;
  createdAt: string;
  usedBy: { collection: string; itemId: string; slug: string; field: string }[];
}

export interface MediaList {
  media: MediaEntry[];
  page: number;
  limit: number;
  total: number;
  totalPages: number;
}

export interface Stats {
  collections: number;
  published: number;
  drafts: number;
  recent: { id: string; slug: string; collection: string; status: string; title: string | null; updatedAt: string }[];
}

export const PLAN_NAMES: Record<Plan, string> = { starter: "Starter", pro: "Pro", seo_engine: "SEO Engine" };

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
};
