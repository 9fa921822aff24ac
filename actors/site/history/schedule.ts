/**
 * Scheduled publishing. The items table is the truth (`publish_at`, `unpublish_at`);
 * one jobs row (`item-schedule`, key `next`) only wakes the one alarm at the earliest due time.
 * Its handler applies every due change in one transaction (the publish or unpublish, its
 * revision, the time cleared), then calls `contentChanged()` once: exactly the effects of a
 * manual publish (cache version, sitemap and feeds, search). Idempotent by state: a second run
 * finds nothing due, so an alarm retried after a crash, or caught up after downtime, applies
 * each change once.
 */
import { ApiError } from "../../../src/contract/errors";
import { MAX_SCHEDULED, SCHEDULE_HORIZON_DAYS } from "../../../src/contract/history-limits";
import { log } from "../../../src/log";
import type { Actor } from "../../../src/access/grant";
import type { SiteContext } from "../context";
import { cancelJob, type JobHandler, pendingJob, scheduleJob } from "../../shared/jobs";
import { backoff } from "../../../src/shared/backoff";
import type { ItemRow } from "../storage/rows";
import type { RevisionActor } from "../storage/revisions-table";
import { applyPending } from "./pending";
import { applyScheduled, rowBySeq, countScheduled, dueScheduled, nextScheduled, updateItemSchedule } from "../storage/items-table";

export const SCHEDULE_JOB = "item-schedule";
const KEY = "next";
// Changes applied per alarm run; the rest run on the immediate re-arm.
const PER_RUN = 200;

/** Points the schedule's job at the earliest due time (or drops it). Call after every schedule change. */
export function armSchedule(storage: DurableObjectStorage): void {
  const next = nextScheduled(storage.sql);
  if (next === null) cancelJob(storage, SCHEDULE_JOB, KEY);
  else if (pendingJob(storage.sql, SCHEDULE_JOB, KEY)?.runAt !== next) scheduleJob(storage, SCHEDULE_JOB, KEY, next);
}

/** Who a scheduled change is recorded as: the schedule, naming whoever set it. */
function scheduleActor(row: ItemRow): RevisionActor {
  const by = row.schedule_by ? (JSON.parse(row.schedule_by) as { id: string | null; label: string; name?: string | null }) : null;
  return { kind: "schedule", id: by?.id ?? null, label: by ? `schedule set by ${by.label}` : "schedule", name: by?.name ?? null };
}

/** Applies what is due at `now`; returns whether anything public changed. */
export function applyDue(s: SiteContext, now: number): { applied: number; visible: boolean } {
  return s.storage.transactionSync(() => {
    let applied = 0;
    let visible = false;
    const byId = new Map(s.collections().map((c) => [c.id, c]));
    for (const d of dueScheduled(s.sql, now, PER_RUN)) {
      const change = (before: ItemRow) => ({
        actor: scheduleActor(before),
        note: now - d.at > 5000 ? `late by ${Math.round((now - d.at) / 1000)} s` : null,
      });
      // "Publish these changes at 9:00": a published item's pending changes go live first.
      if (d.action === "publish") {
        const current = rowBySeq(s.sql, d.seq);
        const c = byId.get(current.collection_id);
        if (c) applyPending(s.sql, c, current, change(current));
      }
      const row = applyScheduled(s.sql, d.seq, d.action, now, change);
      if (!row) continue;
      applied++;
      visible = true;
      log("schedule_applied", { siteId: s.site()?.id ?? "", action: d.action, lateMs: now - d.at });
    }
    return { applied, visible };
  });
}

export function scheduleJobHandler(s: SiteContext): JobHandler {
  return {
    run: () => {
      const now = Date.now();
      const { visible } = applyDue(s, now);
      if (visible) s.contentChanged();
      const next = nextScheduled(s.sql);
      return next === null ? undefined : { next: Math.max(next, now) };
    },
    maxAttempts: 20,
    backoffMs: backoff({ firstMs: 2_000, maxMs: 60_000 }),
  };
}

export interface ScheduleInput {
  publishAt?: string | null;
  unpublishAt?: string | null;
  timeZone?: string;
}

const bad = (path: string, message: string) =>
  new ApiError("bad_request", `Invalid schedule: ${path} ${message}`, { issues: [{ path, message }] });

/** The schedule an input asks for on `row`, checked: in the future, unpublish after publish, within the horizon. */
export function checkSchedule(
  row: ItemRow,
  input: ScheduleInput,
  now: number,
  hasPending = false,
): { publishAt: number | null; unpublishAt: number | null; timeZone: string | null } {
  const ms = (v: string | null | undefined, kept: number | null | undefined): number | null =>
    v === undefined ? (kept ?? null) : v === null ? null : Date.parse(v);
  const publishAt = ms(input.publishAt, row.publish_at);
  const unpublishAt = ms(input.unpublishAt, row.unpublish_at);
  const horizon = now + SCHEDULE_HORIZON_DAYS * 86_400_000;
  for (const [path, t] of [
    ["publishAt", publishAt],
    ["unpublishAt", unpublishAt],
  ] as const) {
    if (t === null) continue;
    if (t <= now) throw bad(path, "is in the past; pick a time in the future");
    if (t > horizon) throw bad(path, `is more than ${SCHEDULE_HORIZON_DAYS / 365} years ahead`);
  }
  // A published item can be scheduled only to publish its pending changes.
  if (publishAt !== null && row.status === "published" && !hasPending) {
    throw bad("publishAt", "is set on an item that is already published and has no pending changes");
  }
  if (unpublishAt !== null && publishAt !== null && unpublishAt <= publishAt) throw bad("unpublishAt", "must be after publishAt");
  if (unpublishAt !== null && publishAt === null && row.status !== "published") {
    throw bad("unpublishAt", "is set on a draft that is not scheduled to be published");
  }
  let timeZone = input.timeZone ?? row.schedule_tz ?? null;
  if (timeZone !== null) {
    try {
      timeZone = new Intl.DateTimeFormat("en", { timeZone }).resolvedOptions().timeZone;
    } catch {
      throw bad("timeZone", `"${timeZone.slice(0, 64)}" is not an IANA time zone (such as Europe/Paris)`);
    }
  }
  return { publishAt, unpublishAt, timeZone };
}

/**
 * The schedule after a manual publish or unpublish of `row`, or null when it stays as it is:
 * a publish by hand cancels the scheduled publish (done now) and keeps the unpublish time; an
 * unpublish by hand cancels both unless `keep` (the dashboard says which before the click).
 */
export function scheduleAfterManual(row: ItemRow, action: "publish" | "unpublish", keep: boolean): ReturnType<typeof checkSchedule> | null {
  if (row.publish_at == null && row.unpublish_at == null) return null;
  const timeZone = row.schedule_tz ?? null;
  if (action === "publish") return row.publish_at == null ? null : { publishAt: null, unpublishAt: row.unpublish_at ?? null, timeZone };
  return keep ? null : { publishAt: null, unpublishAt: null, timeZone };
}

/** Sets an item's schedule (its revision and the alarm in the same transaction). */
export function setSchedule(s: SiteContext, row: ItemRow, sched: ReturnType<typeof checkSchedule>, actor: Actor): ItemRow {
  const scheduled = row.publish_at != null || row.unpublish_at != null;
  const wants = sched.publishAt !== null || sched.unpublishAt !== null;
  if (wants && !scheduled && countScheduled(s.sql) >= MAX_SCHEDULED) {
    throw new ApiError("conflict", `At most ${MAX_SCHEDULED} items of a site can be scheduled at once.`, { limit: "scheduled" });
  }
  const updated = updateItemSchedule(
    s.sql,
    row.seq,
    { ...sched, by: JSON.stringify({ kind: actor.kind, id: actor.id, label: actor.label, name: actor.name }) },
    { actor },
  );
  armSchedule(s.storage);
  return updated;
}
