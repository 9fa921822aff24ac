import { describe, expect, it } from "vitest";
import { call, callJson, newSite, OPERATOR } from "./helpers";

describe("dashboard authentication", () => {
  it("refuses operator routes without the operator token", async () => {
    expect((await callJson("POST", "/sites", { body: { name: "x" } })).status).toBe(401);
    expect((await callJson("POST", "/sites", { auth: "nope", body: { name: "x" } })).status).toBe(401);
    expect((await callJson("POST", "/workspaces", { auth: "nope", body: { name: "x", plan: "pro" } })).status).toBe(401);
  });

  it("creates a site with token and admin key and a one-site starter workspace by default", async () => {
    const { status, body } = await callJson<{ site: Record<string, unknown> }>("POST", "/sites", {
      auth: OPERATOR,
      body: { name: "Mine" },
    });
    expect(status).toBe(201);
    expect(body.site).toMatchObject({ name: "Mine", plan: "starter" });
    expect(body.site.token).toMatch(/^pk_/);
    expect(body.site.adminKey).toMatch(/^sk_/);
    expect(body.site.workspaceId).toMatch(/^ws_/);
    expect(body.site).toMatchObject({ features: { advancedLists: false }, flags: { aiSearch: false } });
  });

  it("lets a site's admin key and the operator read the site, and nobody else", async () => {
    const site = await newSite("starter");
    expect((await callJson("GET", `/sites/${site.id}`, { auth: site.adminKey })).status).toBe(200);
    expect((await callJson("GET", `/sites/${site.id}`, { auth: OPERATOR })).status).toBe(200);
    expect((await callJson("GET", `/sites/${site.id}`)).status).toBe(401);
    const wrong = site.adminKey.slice(0, -4) + "aaaa";
    expect((await callJson("GET", `/sites/${site.id}`, { auth: wrong })).status).toBe(401);
    expect((await callJson("GET", `/sites/${site.id}`, { auth: "garbage" })).status).toBe(401);
  });

  it("answers 404 to a valid key of another site, without revealing the site", async () => {
    const a = await newSite("starter");
    const b = await newSite("starter");
    const r = await callJson<{ error: { code: string } }>("GET", `/sites/${b.id}/collections`, { auth: a.adminKey });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("not_found");
    const missing = await callJson("GET", `/sites/aaaaaaaaaaaaaaaa`, { auth: a.adminKey });
    expect(missing.status).toBe(404);
  });

  it("lets the owner and the operator rename a site", async () => {
    const site = await newSite("starter");
    expect((await callJson("PATCH", `/sites/${site.id}`, { auth: site.adminKey, body: { name: "Owner's" } })).status).toBe(200);
    const r = await callJson<{ site: { name: string } }>("PATCH", `/sites/${site.id}`, { auth: OPERATOR, body: { name: "New" } });
    expect(r.status).toBe(200);
    expect(r.body.site.name).toBe("New");
  });

  it("marks every dashboard response no-store", async () => {
    const site = await newSite("starter");
    const ok = await call("GET", `/sites/${site.id}`, { auth: site.adminKey });
    expect(ok.headers.get("cache-control")).toBe("no-store");
    const err = await call("GET", `/sites/${site.id}`);
    expect(err.headers.get("cache-control")).toBe("no-store");
  });

  it("ignores internal headers a client tries to send", async () => {
    const site = await newSite("starter");
    const r = await callJson("GET", `/sites/${site.id}`, { headers: { "x-oc-operator": "1" } });
    expect(r.status).toBe(401);
  });
});
