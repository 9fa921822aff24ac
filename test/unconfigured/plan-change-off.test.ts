/**
 * A deployment where plans are sold, not self-served (SELF_SERVE_PLANS "off", as in
 * [env.production.vars]): the Owner is refused and pointed at PLANS_CONTACT; the operator still
 * changes plans.
 */
import { describe, expect, it } from "vitest";
import { callJson, expectStatus, OPERATOR, ORIGIN } from "../helpers";
import { signUp } from "../helpers/accounts";
import { uniqueEmail } from "../helpers/mail";

const as = (cookie: string) => ({ headers: { cookie, origin: ORIGIN } });

describe("changing a workspace's plan where it is not self-serve", () => {
  it("refuses the Owner with where to ask, and lets the operator", async () => {
    const owner = await signUp(uniqueEmail("plan-off"));
    const ws = (
      await expectStatus(
        callJson<{ workspace: { id: string } }>("POST", "/workspaces", { ...as(owner.cookie), body: { name: "Sold" } }),
        201,
      )
    ).workspace;
    const read = await expectStatus(
      callJson<{ planChange: { selfServe: boolean; contact: string | null } }>("GET", `/workspaces/${ws.id}`, as(owner.cookie)),
      200,
    );
    expect(read.planChange).toMatchObject({ selfServe: false, contact: "mailto:sales@example.com" });
    const refused = await callJson<{ error: { code: string; message: string; details: Record<string, unknown> } }>(
      "PUT",
      `/workspaces/${ws.id}/plan`,
      { ...as(owner.cookie), body: { plan: "pro" } },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: "forbidden",
      message: "Plans are changed by the team that runs this service on this deployment: mailto:sales@example.com",
      details: { reason: "self_serve_off", contact: "mailto:sales@example.com" },
    });
    const unchanged = await expectStatus(callJson<{ workspace: { plan: string } }>("GET", `/workspaces/${ws.id}`, as(owner.cookie)), 200);
    expect(unchanged.workspace.plan).toBe("free");
    const byOperator = await expectStatus(
      callJson<{ workspace: { plan: string } }>("PUT", `/workspaces/${ws.id}/plan`, { auth: OPERATOR, body: { plan: "pro" } }),
      200,
    );
    expect(byOperator.workspace.plan).toBe("pro");
  });
});
