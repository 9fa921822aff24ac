import type { Collection } from "../storage/rows";
import { itemTitleOf } from "../../../src/contract/item-title";
import { countByStatus, recentRows } from "../storage/items-table";
import { type WidgetSeen, widgetSeen } from "../storage/site-row";

export interface SiteStats {
  collections: number;
  published: number;
  drafts: number;
  /** The latest changed items of any collection, newest first. */
  recent: {
    id: string;
    slug: string;
    collection: string;
    status: string;
    title: string | null;
    updatedAt: string;
    pendingChanges: boolean;
  }[];
  /** The page the embed script last reported running on, and when; null until it has. */
  widgetSeen: WidgetSeen | null;
}

const RECENT = 8;

/** What the dashboard's overview shows: counts and the latest changes. */
export function siteStats(sql: SqlStorage, collections: readonly Collection[]): SiteStats {
  const counts = countByStatus(sql);
  const bySlug = new Map(collections.map((c) => [c.id, c]));
  const recent = recentRows(
    sql,
    collections.map((c) => c.id),
    RECENT,
  ).map((r) => {
    const c = bySlug.get(r.collection_id);
    return {
      id: r.id,
      slug: r.slug,
      collection: c?.slug ?? "",
      status: r.status,
      title: c ? (itemTitleOf(c.fields, JSON.parse(r.data) as Record<string, unknown>)?.slice(0, 200) ?? null) : null,
      updatedAt: r.updated_at,
      pendingChanges: r.pending === 1,
    };
  });
  return {
    collections: collections.length,
    published: counts.find((c) => c.status === "published")?.n ?? 0,
    drafts: counts.find((c) => c.status === "draft")?.n ?? 0,
    recent,
    widgetSeen: widgetSeen(sql),
  };
}
