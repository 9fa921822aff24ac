/**
 * The history API of a site's items: an item's revisions (paged), one revision,
 * restoring one, the trash and undo delete. Writes are authorised per operation
 * (src/access/operations.ts), audited in their own transaction, and leave their revision
 * through the items repository.
 */
import { IttyRouter, type IRequest } from "itty-router";
import { ittyRouter, type Router } from "../../shared/router";
import { ApiError, clip } from "../../../src/contract/errors";
import { TRASH_DAYS } from "../../../src/contract/history-limits";
import { json } from "../../../src/http/json";
import { parseLimit, parsePage } from "../../../src/shared/list-params";
import { isSlug } from "../../../src/contract/slug";
import type { SiteContext } from "../context";
import { ownItem, type SiteAccess } from "../access/site-access";
import { recordAudit } from "../access/audit";
import { itemToChange, readItem, toDashboardItem } from "../content/items";
import type { Collection, ItemRow } from "../storage/rows";
import {
  deletedSince,
  findRevision,
  latestRevision,
  currentRevision,
  revisionPage,
  revisionValue,
  type RevisionRow,
  type RevisionSummaryRow,
} from "../storage/revisions-table";
import { restoreRevision, trashed, undeleteItem } from "./restore";
import { checkSchedule, setSchedule } from "./schedule";
import { scheduleInputSchema } from "../../../src/contract/history";
import { parseBody } from "../../../src/http/validation";
import { readJsonObject } from "../../../src/http/json";
import { upcomingScheduled } from "../storage/items-table";
import { findPending } from "../storage/pending-table";
import { discardPendingChanges, savePendingChanges } from "./pending";
import { itemPatchSchema } from "../../../src/contract/items";
import { titleFieldOf } from "../../../src/contract/item-title";

const DAY = 86_400_000;

/** Who made a revision, as the API answers it (`name` null where none was recorded). */
const actorView = (r: Pick<RevisionSummaryRow, "actor_kind" | "actor_id" | "actor_label" | "actor_name">) => ({
  kind: r.actor_kind,
  id: r.actor_id,
  label: r.actor_label,
  name: r.actor_name ?? null,
});

export function summaryOf(r: RevisionSummaryRow) {
  return {
    id: `rv_${r.seq}`,
    number: r.number,
    kind: r.kind,
    status: r.status,
    slug: r.slug,
    changed: JSON.parse(r.changed) as string[],
    at: new Date(r.at).toISOString(),
    actor: actorView(r),
    note: r.note,
  };
}

export function historyRoutes(s: SiteContext): Router<[SiteAccess]> {
  const router = IttyRouter<IRequest, [SiteAccess]>({ base: "/sites/:siteId" });
  const collection = (req: IRequest): Collection => {
    const slug = req.params.slug ?? "";
    const c = isSlug(slug) ? s.collections().find((x) => x.slug === slug) : undefined;
    if (!c) throw new ApiError("not_found", `No collection "${clip(slug)}".`);
    return c;
  };
  const present = (row: ItemRow, c: Collection) => ({
    ...toDashboardItem(row, c, currentRevision(s.sql, row.id), findPending(s.sql, row.seq)),
    searchIndex: s.search().views([row.id]).get(row.id) ?? null,
  });
  const revision = (req: IRequest, itemId: string): RevisionRow => {
    const raw = req.params.revisionId ?? "";
    const m = /^rv_(\d{1,15})$/.exec(raw);
    const rev = m ? findRevision(s.sql, itemId, Number(m[1])) : undefined;
    if (!rev) throw new ApiError("not_found", `No revision "${clip(raw)}" of item "${clip(itemId)}".`);
    return rev;
  };
  const paging = (req: IRequest) => {
    const url = new URL(req.url);
    return { page: parsePage(url.searchParams.get("page")), limit: parseLimit(url.searchParams.get("limit")) };
  };

  router
    .get("/collections/:slug/items/:id/revisions", (req) => {
      const item = readItem(s.sql, collection(req), req.params.id ?? "");
      const { page, limit } = paging(req);
      const { rows, total } = revisionPage(s.sql, item.id, limit, (page - 1) * limit);
      return json({ revisions: rows.map(summaryOf), page, limit, total, totalPages: Math.ceil(total / limit) });
    })
    .get("/collections/:slug/items/:id/revisions/:revisionId", (req) => {
      const item = readItem(s.sql, collection(req), req.params.id ?? "");
      const rev = revision(req, item.id);
      return json({ revision: { ...summaryOf(rev), data: JSON.parse(rev.data) as Record<string, unknown> } });
    })
    .post("/collections/:slug/items/:id/revisions/:revisionId/restore", (req, a) => {
      const c = collection(req);
      const row = itemToChange(s.sql, c, req.params.id ?? "", req);
      ownItem(a, row);
      const rev = revision(req, row.id);
      const { row: restored, dropped } = s.storage.transactionSync(() => {
        const r = restoreRevision(s.storage, s.collections(), c, row, rev, { actor: a.grant.actor });
        recordAudit(s.sql, a, `${c.slug}/${r.row.slug}`, { id: row.id, revision: rev.number, dropped: r.dropped.map((d) => d.field) });
        return r;
      });
      // On a published item the restore became its pending changes: nothing public changed.
      if (restored.status === "published" && restored.updated_at !== row.updated_at) s.contentChanged();
      const latest = revisionPage(s.sql, row.id, 1, 0).rows[0]!;
      return json({ item: present(restored, c), revision: summaryOf(latest), restore: { dropped } });
    })
    .get("/trash", (req) => {
      const { page, limit } = paging(req);
      const { rows, total } = deletedSince(s.sql, Date.now() - TRASH_DAYS * DAY, limit, (page - 1) * limit);
      const byId = new Map(s.collections().map((c) => [c.id, c]));
      const items = rows.map((r) => {
        const c = byId.get(r.collection_id);
        const key = c ? titleFieldOf(c.fields)?.key : undefined;
        const title = key === undefined ? null : revisionValue(s.sql, r.seq, key);
        return {
          id: r.item_id,
          collection: c?.slug ?? "",
          slug: r.slug,
          title: typeof title === "string" && title.trim() !== "" ? title : null,
          status: r.status,
          deletedAt: new Date(r.at).toISOString(),
          deletedBy: actorView(r),
          purgeAt: new Date(r.at + TRASH_DAYS * DAY).toISOString(),
        };
      });
      return json({ items, page, limit, total, totalPages: Math.ceil(total / limit) });
    })
    .post("/trash/:itemId/restore", (req, a) => {
      const itemId = req.params.itemId ?? "";
      // "Own items only": whose it was decides before whether it is in the trash (a 404 says nothing of others' items).
      if (a.mode === "own") {
        const last = latestRevision(s.sql, itemId);
        ownItem(a, { created_by: last?.created_by ?? null, status: last?.status ?? "draft" });
      }
      const rev = trashed(s.sql, itemId);
      const {
        row,
        collection: c,
        dropped,
      } = s.storage.transactionSync(() => {
        const r = undeleteItem(s.storage, s.collections(), rev, { actor: a.grant.actor });
        recordAudit(s.sql, a, `${r.collection.slug}/${r.row.slug}`, { id: r.row.id, undelete: true });
        return r;
      });
      if (row.status === "published") s.contentChanged();
      return json({ item: present(row, c), restore: { dropped } });
    })
    .put("/collections/:slug/items/:id/pending", async (req, a) => {
      // The body first: from here on nothing awaits, so the row read is the row the change is made to.
      const body = await readJsonObject(req);
      const c = collection(req);
      const row = itemToChange(s.sql, c, req.params.id ?? "", req);
      ownItem(a, row);
      const patch = parseBody(itemPatchSchema, body, "item");
      // Nothing public changes: no cache version bump.
      s.storage.transactionSync(() => {
        savePendingChanges(s.storage, s.collections(), c, row, patch, { actor: a.grant.actor });
        recordAudit(s.sql, a, `${c.slug}/${row.slug}`, { id: row.id, pending: true });
      });
      return json({ item: present(readItem(s.sql, c, row.id), c) });
    })
    .delete("/collections/:slug/items/:id/pending", (req, a) => {
      const c = collection(req);
      const row = itemToChange(s.sql, c, req.params.id ?? "", req);
      ownItem(a, row);
      s.storage.transactionSync(() => {
        discardPendingChanges(s.sql, row, { actor: a.grant.actor });
        recordAudit(s.sql, a, `${c.slug}/${row.slug}`, { id: row.id, discarded: true });
      });
      return json({ item: present(row, c) });
    })
    .put("/collections/:slug/items/:id/schedule", async (req, a) => {
      // The body first: from here on nothing awaits, so the row read is the row the change is made to.
      const body = await readJsonObject(req);
      const c = collection(req);
      const row = itemToChange(s.sql, c, req.params.id ?? "", req);
      ownItem(a, row);
      const input = parseBody(scheduleInputSchema, body, "schedule");
      const sched = checkSchedule(row, input, Date.now(), findPending(s.sql, row.seq) !== undefined);
      const updated = s.storage.transactionSync(() => {
        const u = setSchedule(s, row, sched, a.grant.actor);
        recordAudit(s.sql, a, `${c.slug}/${row.slug}`, { id: row.id, publishAt: sched.publishAt, unpublishAt: sched.unpublishAt });
        return u;
      });
      return json({ item: present(updated, c) });
    })
    .delete("/collections/:slug/items/:id/schedule", (req, a) => {
      const c = collection(req);
      const row = itemToChange(s.sql, c, req.params.id ?? "", req);
      ownItem(a, row);
      const updated = s.storage.transactionSync(() => {
        const u = setSchedule(s, row, { publishAt: null, unpublishAt: null, timeZone: null }, a.grant.actor);
        recordAudit(s.sql, a, `${c.slug}/${row.slug}`, { id: row.id });
        return u;
      });
      return json({ item: present(updated, c) });
    })
    .get("/schedule", (req) => {
      const limit = parseLimit(new URL(req.url).searchParams.get("limit"), 10, 50);
      const byId = new Map(s.collections().map((c) => [c.id, c]));
      const upcoming = upcomingScheduled(s.sql, limit).flatMap((r) => {
        const c = byId.get(r.collection_id);
        const key = c ? titleFieldOf(c.fields)?.key : undefined;
        const title = key ? (JSON.parse(r.data) as Record<string, unknown>)[key] : undefined;
        const item = { id: r.id, slug: r.slug, collection: c?.slug ?? "", title: typeof title === "string" ? title : null };
        const changes = [
          ...(r.publish_at != null ? [{ item, action: "publish" as const, at: r.publish_at, timeZone: r.schedule_tz }] : []),
          ...(r.unpublish_at != null ? [{ item, action: "unpublish" as const, at: r.unpublish_at, timeZone: r.schedule_tz }] : []),
        ];
        return changes;
      });
      upcoming.sort((x, y) => x.at - y.at);
      return json({ upcoming: upcoming.slice(0, limit).map((u) => ({ ...u, at: new Date(u.at).toISOString() })) });
    });
  return ittyRouter(router);
}
