/**
 * The shapes of the site database's main rows as the code reads them: a collection (its
 * fields parsed) and an item row. They sit below every room so any part may name them
 * without importing the code that writes them (docs/storage-schema.md lists every column).
 */
import type { Field } from "../../../src/contract/fields";

/** A collection with its fields parsed (table `collections`). */
export interface Collection {
  id: string;
  slug: string;
  name: string;
  fields: Field[];
  createdAt: string;
  updatedAt: string;
}

/** A row of table `items`. */
export type ItemRow = {
  seq: number;
  id: string;
  collection_id: string;
  slug: string;
  status: "draft" | "published";
  data: string;
  /** The public data as JSON, when the query asked for it (PUBLIC_DATA_COLUMN in content/public-items.ts). */
  public_data?: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  /** The account that created / last changed it (migration 13); null before accounts, or by an admin key or the operator. */
  created_by?: string | null;
  updated_by?: string | null;
  /** When the schedule publishes / unpublishes it (epoch ms, migration 15); null when not scheduled. */
  publish_at?: number | null;
  unpublish_at?: number | null;
  /** The IANA zone the schedule was picked in (display only), and who set it (JSON actor). */
  schedule_tz?: string | null;
  schedule_by?: string | null;
};
