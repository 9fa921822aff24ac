/**
 * Publishing and unpublishing from the dashboard's API: one item (publishItem, unpublishItem) or
 * up to 1,000 of a collection at once (publishItems), each item changed the same way, in the
 * caller's transaction, with its audit row.
 */
import { ApiError, clip } from "../../../src/contract/errors";
import type { Collection, ItemRow } from "../storage/rows";
import type { SiteContext } from "../context";
import { ownItem, type SiteAccess } from "../access/site-access";
import { recordAudit, recordAudits } from "../access/audit";
import { setStatus } from "../content/items";
import { publishDrafts, rowBySeq, statesByIds } from "../storage/items-table";
import { unrecordedOf } from "../storage/revisions-table";
import { applyPending } from "../history/pending";
import { pendingOf } from "../storage/pending-table";
import { scheduleAfterManual, setSchedule } from "../history/schedule";

/** One item published or taken back to draft (call inside a transaction); returns it as stored. */
export function changeStatus(
  s: SiteContext,
  a: SiteAccess,
  c: Collection,
  row: ItemRow,
  action: "publish" | "unpublish",
  keepSchedule = false,
): ItemRow {
  // Publishing makes a published item's pending changes live first (history/pending.ts).
  const current = action === "publish" ? applyPending(s.sql, c, row, { actor: a.grant.actor }) : row;
  const n = setStatus(s.sql, current, action === "publish" ? "published" : "draft", { actor: a.grant.actor }, a.grant.actor.id);
  // `pending`: this publish made a published item's pending changes live.
  recordAudit(s.sql, a, `${c.slug}/${row.slug}`, { id: row.id, ...(current !== row ? { pending: true } : {}) });
  // By hand: publishing cancels a scheduled publish (it is done) and keeps the unpublish;
  // unpublishing cancels the schedule unless asked to keep it (history/schedule.ts).
  const kept = scheduleAfterManual(n, action, keepSchedule);
  return kept ? setSchedule(s, n, kept, a.grant.actor) : n;
}

/**
 * The items of `ids` published, all or nothing: every id must be an item of `c` the caller may
 * publish. A published item without pending changes is left as it is (no revision, no audit
 * row). Returns the ids that changed, in their order.
 *
 * Plain drafts (no pending changes, no scheduled publish, a history begun) are published in one
 * statement with their revisions and audit rows in one each; what changeStatus would do to them
 * comes to the same rows. The rest go through changeStatus one by one.
 */
export function publishItems(s: SiteContext, a: SiteAccess, c: Collection, ids: readonly string[]): string[] {
  const found = new Map(statesByIds(s.sql, ids).map((r) => [r.id, r]));
  const rows = ids.map((id) => {
    const row = found.get(id);
    if (!row || row.collection_id !== c.id)
      throw new ApiError("not_found", `No item "${clip(id)}" in collection "${c.slug}".`, { id: clip(id) });
    ownItem(a, row);
    return row;
  });
  return s.storage.transactionSync(() => {
    const pending = pendingOf(
      s.sql,
      rows.map((r) => r.seq),
    );
    const drafts = rows.filter((r) => r.status === "draft" && !pending.has(r.seq) && r.publish_at == null);
    const unrecorded = unrecordedOf(
      s.sql,
      drafts.map((r) => r.seq),
    );
    const plain = drafts.filter((r) => !unrecorded.has(r.seq));
    const actor = a.grant.actor;
    const published = new Set(
      publishDrafts(
        s.sql,
        plain.map((r) => r.seq),
        new Date().toISOString(),
        { actor },
        actor.id,
      ),
    );
    recordAudits(
      s.sql,
      a,
      plain.filter((r) => published.has(r.seq)).map((r) => ({ target: `${c.slug}/${r.slug}`, details: { id: r.id } })),
    );
    const changed = new Set<string>();
    for (const row of rows) {
      if (published.has(row.seq)) changed.add(row.id);
      else if (row.status === "draft" || pending.has(row.seq)) {
        changeStatus(s, a, c, rowBySeq(s.sql, row.seq), "publish");
        changed.add(row.id);
      }
    }
    return [...changed];
  });
}
