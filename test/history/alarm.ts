/** Helpers of the history tests: the site object, and its alarm run until nothing is due. */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { TestSite } from "../helpers";

export const stubOf = (site: TestSite) => env.SITE.get(env.SITE.idFromName(site.id));

/** Runs the alarm until no job is due (the sitemap rebuild a publish queues runs on the next pass). */
export async function settle(site: TestSite): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const due = await runInDurableObject(
      stubOf(site),
      (_i, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM jobs WHERE run_at <= ?", Date.now()).one().n,
    );
    if (due === 0) return;
    if (!(await runDurableObjectAlarm(stubOf(site)))) await scheduler.wait(20);
  }
  throw new Error("alarm did not settle");
}
