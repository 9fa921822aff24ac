/**
 * The Owner changes the workspace's plan on a self-serve deployment (wrangler.toml's local
 * SELF_SERVE_PLANS "on"): the sites follow at once, the change is audited, an Administrator is
 * refused, and a smaller plan than the workspace fits is refused without deleting anything.
 */
import { describe, expect, it } from "vitest";
import { callJson, expectStatus, ORIGIN } from "../helpers";
import { fragmentToken, signUp } from "../helpers/accounts";
import { linkIn, mailTo, uniqueEmail } from "../helpers/mail";

const as = (cookie: string) => ({ headers: { cookie, origin: ORIGIN } });

interface PlanChangeAnswer {
  selfServe: boolean;
  contact: string | null;
  currency: string;
  plans: { plan: string; pricePerMonth: number | null; limits: { sites: number; members: number } }[];
}

describe("changing a workspace's plan, self-serve", () => {
  it("the Owner moves up and down; an Administrator cannot; the audit log has it", async () => {
    const owner = await signUp(uniqueEmail("plan-owner"));
    const ws = (
      await expectStatus(
        callJson<{ workspace: { id: string } }>("POST", "/workspaces", { ...as(owner.cookie), body: { name: "Plans" } }),
        201,
      )
    ).workspace;
    const site = (
      await expectStatus(
        callJson<{ site: { id: string } }>("POST", "/sites", { ...as(owner.cookie), body: { name: "Blog", workspaceId: ws.id } }),
        201,
      )
    ).site;
    // What the Plan screen reads: the deployment's way to change plan and every plan's price and limits.
    const read = await expectStatus(
      callJson<{ site: { plan: string }; planChange: PlanChangeAnswer }>("GET", `/sites/${site.id}`, as(owner.cookie)),
      200,
    );
    expect(read.site.plan).toBe("free");
    expect(read.planChange).toMatchObject({ selfServe: true, contact: null, currency: "USD" });
    expect(read.planChange.plans.map((p) => [p.plan, p.pricePerMonth, p.limits.sites])).toEqual([
      ["free", 0, 1],
      ["starter", 9, 3],
      ["pro", 29, 10],
      ["seo_engine", 99, 25],
    ]);
    const wsRead = await expectStatus(callJson<{ planChange: PlanChangeAnswer }>("GET", `/workspaces/${ws.id}`, as(owner.cookie)), 200);
    expect(wsRead.planChange.selfServe).toBe(true);

    // An Administrator may rename the workspace but not change what it pays for.
    const email = uniqueEmail("plan-admin");
    await expectStatus(
      callJson("POST", `/workspaces/${ws.id}/invitations`, { ...as(owner.cookie), body: { email, role: "administrator" } }),
      201,
    );
    const token = fragmentToken(linkIn(await mailTo(email, /invited to a workspace/)), "invite");
    const admin = await signUp(email);
    await expectStatus(callJson("POST", "/invitations/accept", { ...as(admin.cookie), body: { token } }), 200);
    const refused = await callJson<{ error: { code: string; details: { permission: string; role: string } } }>(
      "PUT",
      `/workspaces/${ws.id}/plan`,
      { ...as(admin.cookie), body: { plan: "pro" } },
    );
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "forbidden", details: { permission: "workspace.plan", role: "administrator" } });

    expect((await callJson("PUT", `/workspaces/${ws.id}/plan`, { ...as(owner.cookie), body: { plan: "gold" } })).status).toBe(400);
    // A cookie write from another origin changes nothing.
    const crossOrigin = await callJson("PUT", `/workspaces/${ws.id}/plan`, {
      headers: { cookie: owner.cookie, origin: "https://evil.example" },
      body: { plan: "pro" },
    });
    expect(crossOrigin.status).toBe(403);

    const changed = await expectStatus(
      callJson<{ workspace: { plan: string } }>("PUT", `/workspaces/${ws.id}/plan`, { ...as(owner.cookie), body: { plan: "pro" } }),
      200,
    );
    expect(changed.workspace.plan).toBe("pro");
    // The site has the plan's features on the very next read.
    const after = await expectStatus(
      callJson<{ site: { plan: string; features: { advancedLists: boolean }; flags: { aiSearch: boolean } } }>(
        "GET",
        `/sites/${site.id}`,
        as(owner.cookie),
      ),
      200,
    );
    expect(after.site).toMatchObject({ plan: "pro", features: { advancedLists: true }, flags: { aiSearch: true } });

    // Two sites do not fit the Free plan: refused, nothing deleted.
    await expectStatus(callJson("POST", "/sites", { ...as(owner.cookie), body: { name: "Shop", workspaceId: ws.id } }), 201);
    const tooSmall = await callJson<{ error: { code: string; message: string } }>("PUT", `/workspaces/${ws.id}/plan`, {
      ...as(owner.cookie),
      body: { plan: "free" },
    });
    expect(tooSmall.status).toBe(409);
    expect(tooSmall.body.error.message).toBe(
      "This workspace has 2 sites; the Free plan allows 1. Delete sites first, then change the plan.",
    );
    const still = await expectStatus(
      callJson<{ workspace: { plan: string; siteIds: string[] } }>("GET", `/workspaces/${ws.id}`, as(owner.cookie)),
      200,
    );
    expect(still.workspace).toMatchObject({ plan: "pro" });
    expect(still.workspace.siteIds).toHaveLength(2);

    await expectStatus(callJson("PUT", `/workspaces/${ws.id}/plan`, { ...as(owner.cookie), body: { plan: "starter" } }), 200);
    const audit = await expectStatus(
      callJson<{ entries: { operation: string; actor: { label: string }; details: unknown }[] }>(
        "GET",
        `/workspaces/${ws.id}/audit?kind=Workspaces`,
        as(owner.cookie),
      ),
      200,
    );
    const changes = audit.entries.filter((e) => e.operation === "changePlan");
    expect(changes.map((e) => e.details)).toEqual([
      { from: "pro", to: "starter" },
      { from: "free", to: "pro" },
    ]);
    expect(changes[0]!.actor.label).toBe(owner.account.email);
  });
});
