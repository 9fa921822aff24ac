/**
 * Every kind of a site's deferred work, by the `kind` its rows carry in the jobs table, and the
 * recurring ones armed when the object opens. The one alarm runs them (actors/shared/jobs.ts).
 */
import { backoff } from "../../src/shared/backoff";
import type { LiveSite } from "./live-site";
import { armRecurring, type JobHandler, type Recurring, scheduleJob } from "../shared/jobs";
import { regenerateDocuments, SEO_DOCUMENTS_JOB } from "./seo/documents";
import { PUBLIC_REBUILD_JOB } from "./reads/public-rebuild";
import { INDEX_JOB } from "./search/site-search";
import { REVISIONS_PRUNE_JOB, retentionJob } from "./history/retention";
import { armSchedule, SCHEDULE_JOB, scheduleJobHandler } from "./history/schedule";
import { refresh, nextNightly } from "./ssr/capture";
import { SSR_JOBS } from "./http/ssr-routes";
import { checkDelayMs, checkHostname, HOSTNAME_JOB } from "./hostnames/service";
import { AUDIT_PRUNE_JOB, pruneAudit } from "../shared/audit-log";
import { MEDIA_SWEEP_JOB, mediaSweepJob, SWEEP_EVERY_MS } from "./media/sweep";
import { deliveryJob, pruneJob, WEBHOOKS_JOB, WEBHOOKS_PRUNE_JOB } from "./webhooks/deliver";
import type { importJob } from "./imports/job";
import { IMPORT_JOB, importFailed, IMPORTS_PRUNE_JOB, pruneImports } from "./imports/store";
import { PREVIEW_LINKS_PRUNE_JOB, previewLinksPruneJob } from "./preview/prune";
import { backfillSearchIndex, SEARCH_INDEX_JOB, searchIndexReady } from "./storage/search-index";
import { compactRevisions, REVISIONS_COMPACT_JOB, revisionsCompacted } from "./storage/revisions-table";
import {
  hasRemovedTranslations,
  hasStaleTranslations,
  LOCALES_PURGE_JOB,
  purgeRemovedTranslations,
  TRANSLATIONS_SEARCH_JOB,
} from "./storage/locales-table";
import { refreshStaleTranslations } from "./locales/translations";
import { compactVectors, VECTORS_COMPACT_JOB, vectorsCompacted } from "./search/sqlite-index";

const DAY_MS = 86_400_000;
/** Rows a slice of the locale jobs handles: well inside one alarm's CPU. */
const SLICE = 500;

/** The recurring clean-ups, each armed once when the object opens. */
const RECURRING: readonly Recurring[] = [
  [AUDIT_PRUNE_JOB, DAY_MS],
  [MEDIA_SWEEP_JOB, SWEEP_EVERY_MS],
  [REVISIONS_PRUNE_JOB, DAY_MS],
  [WEBHOOKS_PRUNE_JOB, DAY_MS],
  [IMPORTS_PRUNE_JOB, DAY_MS],
  [PREVIEW_LINKS_PRUNE_JOB, DAY_MS],
];

/** Arms what a restart must find armed: the recurring clean-ups (a restart keeps the time a job already has) and the schedule's job. */
export function armSiteJobs(s: LiveSite): void {
  armRecurring(s.storage, RECURRING);
  // The schedule's job follows the items table (the truth), whatever a restart left.
  armSchedule(s.storage);
  // A site from before the substring index fills it in slices; its searches scan until then.
  if (!searchIndexReady(s.sql)) scheduleJob(s.storage, SEARCH_INDEX_JOB, "all", Date.now());
  // Revisions from before they could point at their item's values are marked in slices.
  if (!revisionsCompacted(s.sql)) scheduleJob(s.storage, REVISIONS_COMPACT_JOB, "all", Date.now());
  // Local vectors stored as float32 before the int8 codes are rewritten in slices.
  if (!vectorsCompacted(s.sql)) scheduleJob(s.storage, VECTORS_COMPACT_JOB, "all", Date.now());
  // Translations of a removed locale, and search texts of translations an edit made stale.
  if (hasRemovedTranslations(s.sql)) scheduleJob(s.storage, LOCALES_PURGE_JOB, "all", Date.now());
  if (hasStaleTranslations(s.sql)) scheduleJob(s.storage, TRANSLATIONS_SEARCH_JOB, "all", Date.now());
  // Public JSON kept in full before it could be the data with media laid over is rewritten once.
  s.publicRebuild.rewriteFullCopiesOnce();
}

/** The handlers of every kind of job a site runs. */
export function siteJobs(s: LiveSite): Readonly<Record<string, JobHandler>> {
  // The import job's code (csv, mapping and schema checks) loads on its first run, never for a read.
  let imports: ReturnType<typeof importJob> | null = null;
  return {
    [INDEX_JOB]: s.searchService.job,
    [SSR_JOBS.nightly]: {
      run: async () => {
        if (!s.capture()) return;
        // A failed nightly refresh is recorded on the capture; the next night tries again.
        await refresh(s, "nightly").catch(() => undefined);
        return { next: nextNightly(s.site()!.id) };
      },
    },
    [SSR_JOBS.webhook]: {
      run: async () => {
        if (s.capture()) await refresh(s, "webhook");
      },
      maxAttempts: 5,
      backoffMs: backoff({ firstMs: 15_000, factor: 4 }),
    },
    [HOSTNAME_JOB]: {
      run: (hostname) => checkHostname(s, hostname),
      // A provider outage is retried; the job keeps its own pace when the answer is "not yet".
      backoffMs: (attempt) => checkDelayMs(attempt),
      maxAttempts: 20,
    },
    [AUDIT_PRUNE_JOB]: {
      // Audit rows are kept AUDIT_RETENTION_MS (more than the 90 days promised), then go.
      run: () => {
        pruneAudit(s.sql, Date.now());
        return { next: Date.now() + DAY_MS };
      },
    },
    // Daily: R2 objects no row names, uploads a crash left open (actors/site/media/sweep.ts).
    [MEDIA_SWEEP_JOB]: mediaSweepJob(s),
    // Item history by the plan's retention, daily (site/history/retention.ts).
    [REVISIONS_PRUNE_JOB]: retentionJob(s.sql, () => s.site()?.plan ?? null),
    // Scheduled publish and unpublish, with every effect of a manual one (site/history/schedule.ts).
    [SCHEDULE_JOB]: scheduleJobHandler(s),
    // Outbound webhooks: due deliveries of the events the triggers wrote (site/webhooks/).
    [WEBHOOKS_JOB]: deliveryJob(s),
    // Daily: the delivery log's rows older than 30 days (site/webhooks/deliveries.ts).
    [WEBHOOKS_PRUNE_JOB]: pruneJob(s.sql),
    // Imports: the dry run, the write and the link pass of one import, a slice of rows at a time (site/imports/job.ts).
    [IMPORT_JOB]: {
      run: async (id) => (imports ??= (await import("./imports/job")).importJob(s)).run(id),
      maxAttempts: 5,
      backoffMs: backoff({ firstMs: 5_000, linear: true }),
      failed: (id, error) => importFailed(s.sql, id, error),
    },
    // Daily: staged rows of imports that ended a week ago (site/imports/store.ts).
    [IMPORTS_PRUNE_JOB]: {
      run: () => {
        pruneImports(s.sql, Date.now());
        return { next: Date.now() + DAY_MS };
      },
    },
    // Daily: share links that ended more than 30 days ago, of every item (site/preview/prune.ts).
    [PREVIEW_LINKS_PRUNE_JOB]: previewLinksPruneJob(s.sql),
    [PUBLIC_REBUILD_JOB]: s.publicRebuild.job(s.collections),
    // The substring index of an older site, a slice of rows per run (site/storage/search-index.ts).
    [SEARCH_INDEX_JOB]: { run: () => (backfillSearchIndex(s.storage) ? { next: Date.now() } : undefined) },
    // Revisions of an older site that hold their item's current values, marked a slice per run (site/storage/revisions-table.ts).
    [REVISIONS_COMPACT_JOB]: { run: () => (compactRevisions(s.storage) ? { next: Date.now() } : undefined) },
    [VECTORS_COMPACT_JOB]: { run: () => (compactVectors(s.storage) ? { next: Date.now() } : undefined) },
    [LOCALES_PURGE_JOB]: { run: () => (purgeRemovedTranslations(s.sql, SLICE) === SLICE ? { next: Date.now() } : undefined) },
    [TRANSLATIONS_SEARCH_JOB]: {
      run: () => {
        const done = refreshStaleTranslations(s.sql, s.locales(), s.collections(), SLICE);
        // A search in a locale read between the edit and this run may be cached with the old text.
        if (done > 0) s.cacheChanged();
        return done === SLICE ? { next: Date.now() } : undefined;
      },
    },
    [SEO_DOCUMENTS_JOB]: {
      // No cache version bump: while this job was queued the documents were served with
      // no-store (http/ssr-routes.ts), so no cache holds a stale copy, and pages are already current.
      run: (key) => s.documentsBuilt(regenerateDocuments(s, key)),
    },
  };
}
