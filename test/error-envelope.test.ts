import { describe, expect, it } from "vitest";
import { call, newSite } from "./helpers";

describe("error envelope", () => {
  it.each([
    ["GET", "/nope"],
    ["GET", "/v1/x/collections/y/items"],
    ["POST", "/sites"],
    ["GET", "/sites/aaaaaaaaaaaaaaaa"],
    ["DELETE", "/workspaces/x"],
  ])("%s %s answers JSON {error: {code, message}} with no-store", async (method, path) => {
    const r = await call(method, path);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.headers.get("cache-control")).toBe("no-store");
    const body = (await r.json()) as { error: { code: string; message: string } };
    expect(Object.keys(body)).toEqual(["error"]);
    expect(body.error.code).toMatch(/^[a-z_]+$/);
    expect(body.error.message.length).toBeGreaterThan(0);
  });

  it("answers an unknown dashboard route inside a site with not_found", async () => {
    const site = await newSite();
    const r = await call("GET", `/sites/${site.id}/nothing-here`, { auth: site.adminKey });
    expect(r.status).toBe(404);
  });
});
