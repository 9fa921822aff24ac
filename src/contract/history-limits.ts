/**
 * The numbers of item history and scheduling, without zod: the site object's start-up
 * code (the alarm's jobs) reads them, and a public read must not load the schemas.
 */
import type { Plan } from "./plans";

/** How long an item's revisions are kept, by plan: the newest `perItem`, none older than `days` (null: no bound). */
export const HISTORY_RETENTION: Readonly<Record<Plan, { perItem: number | null; days: number | null }>> = {
  free: { perItem: 50, days: 90 },
  starter: { perItem: 50, days: 90 },
  pro: { perItem: 200, days: 365 },
  seo_engine: { perItem: null, days: null },
};
/** A deleted item stays in the trash (restorable, with its history) this long. */
export const TRASH_DAYS = 30;
/** How far ahead a publish or unpublish time may be. */
export const SCHEDULE_HORIZON_DAYS = 5 * 365;
/** Items that may carry a schedule at once, per site. */
export const MAX_SCHEDULED = 1000;

/** Share links (previews of a draft): lifetime, password, opens, how many may be live at once. */
export const PREVIEW_LINK_LIMITS = {
  /** Seconds; the default when none is chosen is 7 days. */
  minSeconds: 3600,
  maxSeconds: 30 * 86_400,
  defaultSeconds: 7 * 86_400,
  passwordMin: 8,
  passwordMax: 256,
  maxOpens: 10_000,
  labelMax: 100,
  livePerItem: 20,
  livePerSite: 500,
  /** Wrong passwords one client may try on one link before waiting (then the wait doubles). */
  freePasswordAttempts: 3,
  /** How long a right password is remembered by the browser (a cookie), in seconds. */
  unlockSeconds: 12 * 3600,
} as const;
