/**
 * The daily `preview-links-prune` job of the one alarm: share links of every item that ended
 * (revoked, expired, used up) more than 30 days ago are deleted, so dead links do not pile up on
 * items that never get a new one. Bounded work per run; when the bound is hit it runs again soon.
 */
import type { JobHandler } from "../../shared/jobs";
import { deleteEndedLinks, KEEP_ENDED_MS } from "./links-table";

export const PREVIEW_LINKS_PRUNE_JOB = "preview-links-prune";
const DAY = 86_400_000;
const PER_RUN = 1000;

export function previewLinksPruneJob(sql: SqlStorage): JobHandler {
  return {
    run: () => {
      const now = Date.now();
      const removed = deleteEndedLinks(sql, now - KEEP_ENDED_MS, PER_RUN);
      return { next: removed >= PER_RUN ? now + 1000 : now + DAY };
    },
  };
}
