/**
 * Plain http on the service's own hosts. The tests' Worker is a local run (wrangler.toml's
 * top-level LOCAL_HTTP); production's settings leave it out, so these calls go through the real
 * front Worker with that one variable as production has it.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { callJson, newSite, putCollection } from "../helpers";

const production = { ...env, LOCAL_HTTP: undefined } as Env;

async function send(url: string, init: RequestInit = {}, on: Env = production): Promise<Response> {
  const ctx = createExecutionContext();
  // An incoming request, as the runtime hands one to the Worker.
  const request = new Request(url, { redirect: "manual", ...init }) as Request<unknown, IncomingRequestCfProperties>;
  const res = await worker.fetch(request, on, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const signIn = (origin: string, key: string, on?: Env) =>
  send(
    `${origin}/sessions`,
    {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ key }),
    },
    on,
  );

describe("plain http on the service's own hosts, outside local runs", () => {
  it("a sign-in over http is refused and sets no cookie; over https the cookie is Secure", async () => {
    const site = await newSite();
    const plain = await signIn("http://api.test", site.adminKey);
    expect(plain.headers.get("set-cookie")).toBeNull();
    expect(plain.status).toBe(400);
    const body = (await plain.json()) as { error: { code: string; message: string; details: { reason: string; origin: string } } };
    expect(body.error).toMatchObject({ code: "bad_request", details: { reason: "https_required", origin: "https://api.test" } });
    expect(body.error.message).toContain("https://api.test");

    const secure = await signIn("https://api.test", site.adminKey);
    expect(secure.status).toBe(201);
    expect(secure.headers.get("set-cookie")).toMatch(/^__Host-oc_session=[^;]+;.*; Secure/);
  });

  it("every other write, and any request with a key, is refused before anything is done", async () => {
    const site = await newSite();
    const write = await send(`http://api.test/sites/${site.id}/collections/notes`, {
      method: "PUT",
      headers: { authorization: `Bearer ${site.adminKey}`, "content-type": "application/json" },
      body: JSON.stringify({ fields: [{ key: "title", type: "text" }] }),
    });
    expect(write.status).toBe(400);
    expect(((await write.json()) as { error: { details: { reason: string } } }).error.details.reason).toBe("https_required");
    // Nothing was made.
    expect((await callJson("GET", `/sites/${site.id}/collections/notes`, { auth: site.adminKey })).status).toBe(404);
    // A read with a key is refused too: the key already crossed in the clear, and a client that
    // followed a redirect would not learn it.
    const read = await send(`http://api.test/sites/${site.id}`, { headers: { authorization: `Bearer ${site.adminKey}` } });
    expect(read.status).toBe(400);
    expect(read.headers.get("location")).toBeNull();
  });

  it("reads are sent to the same URL on https (308), public reads with CORS headers, even when the isolate holds the answer", async () => {
    const site = await newSite();
    await putCollection(site, "posts", { name: "Posts", fields: [{ key: "title", type: "text" }] });
    const path = `/v1/${site.token}/collections/posts/items?limit=5`;
    // Held by this isolate's memory after an https read.
    expect((await send(`https://api.test${path}`)).status).toBe(200);
    const read = await send(`http://api.test${path}`);
    expect(read.status).toBe(308);
    expect(read.headers.get("location")).toBe(`https://api.test${path}`);
    expect(read.headers.get("access-control-allow-origin")).toBe("*");

    const page = await send("http://api.test/dashboard/");
    expect(page.status).toBe(308);
    expect(page.headers.get("location")).toBe("https://api.test/dashboard/");
  });

  it("a customer's hostname over http is theirs to serve: not redirected", async () => {
    const res = await send("http://shop.example.org/blog/");
    expect(res.status).not.toBe(308);
    expect(res.status).not.toBe(400);
  });

  it("a local run answers http as https (npm start, wrangler dev)", async () => {
    const site = await newSite();
    const local = await signIn("http://api.test", site.adminKey, { ...env, LOCAL_HTTP: "true" } as Env);
    expect(local.status).toBe(201);
    expect(local.headers.get("set-cookie")).toMatch(/^oc_session=/);
  });
});
