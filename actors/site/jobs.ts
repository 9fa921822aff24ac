/**
 * The site's rooms take the jobs table from here: the one alarm mechanism the Site shares with
 * the Workspace (actors/shared/jobs.ts), run on the site's own storage.
 */
export {
  armAlarm,
  armRecurring,
  cancelJob,
  type JobHandler,
  type JobResult,
  pendingJob,
  type Recurring,
  runDueJobs,
  scheduleJob,
} from "../shared/jobs";
