/**
 * `PUT /workspaces/:id/plan`: the Owner changes the workspace's plan where the operator made plans
 * self-serve (SELF_SERVE_PLANS), or the operator does anywhere. The object has checked the caller
 * and `workspace.plan` (the Owner's alone) before this runs.
 */
import type { IRequest, IttyRouterType } from "itty-router";
import { ApiError } from "../../src/contract/errors";
import type { Principal } from "../../src/contract/principal";
import { overPlanLimits, planChange } from "../../src/contract/plan-offer";
import { json, readJsonObject } from "../../src/http/json";
import { parseBody } from "../../src/http/validation";
import { type Changer, recordWorkspaceAudit } from "./audit";
import type { LiveWorkspace, WorkspaceRecord } from "./live-workspace";
import { countMembers } from "./members";

export function addPlanRoute(router: IttyRouterType<IRequest, [Changer, WorkspaceRecord, Principal]>, w: LiveWorkspace): void {
  router.put("/plan", async (req, c, ws) => {
    // The body's schema (zod) loads on the first change, never at start-up (docs/caching.md).
    const { PlanChangeBody } = await import("../../src/contract/plan-schemas");
    const { plan } = parseBody(PlanChangeBody, await readJsonObject(req), "plan");
    const byOperator = c.grant.role === "operator";
    const offer = planChange(w.env);
    if (!byOperator && !offer.selfServe)
      throw new ApiError(
        "forbidden",
        offer.contact
          ? `Plans are changed by the team that runs this service on this deployment: ${offer.contact}`
          : "Plans are changed by the team that runs this service on this deployment (SELF_SERVE_PLANS is off).",
        { permission: "operator", role: c.grant.role, reason: "self_serve_off", contact: offer.contact },
      );
    // Nothing is deleted to fit a smaller plan; the operator may still put a workspace over it.
    const over = byOperator || plan === ws.plan ? null : overPlanLimits(plan, { sites: ws.siteIds.length, members: countMembers(w.sql) });
    if (over) throw new ApiError("conflict", over, { plan, reason: "over_limits" });
    // The plan and its audit row in one transaction; then every site gets it before this answers.
    // Asking again for the same plan records nothing and pushes it again: the retry after a 502.
    if (plan !== ws.plan)
      w.storage.transactionSync(() => {
        w.sql.exec("UPDATE workspace SET plan = ?, updated_at = ?", plan, new Date().toISOString());
        recordWorkspaceAudit(w.sql, c, `workspace ${ws.name}`, null, { from: ws.plan, to: plan });
      });
    let workspace;
    try {
      workspace = await w.update({ plan });
    } catch {
      throw new ApiError("bad_gateway", "The plan is saved, but some of the workspace's sites do not have it yet. Try again in a minute.", {
        applied: true,
      });
    }
    return json({ workspace });
  });
}
