import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LocalProvider } from "../actors/site/hostnames/providers";
import { callJson, newBlog } from "./helpers";
import { activeOn, onHost, proveOwnership, register, renderedBlog, uniqueHost, validate, view } from "./hostname-helpers";

describe("custom hostname lifecycle (local provider)", () => {
  it("names the validation URL with the port the service listens on, so it can be pasted as is", async () => {
    const state = await new LocalProvider("localhost", () => false, "8787").create("blog.localhost", "abc123");
    expect(state.missing[0]).toContain("http://blog.localhost:8787/.well-known/oc-hostname/abc123");
    const standard = await new LocalProvider("localhost", () => false).create("blog.localhost", "abc123");
    expect(standard.missing[0]).toContain("http://blog.localhost/.well-known/oc-hostname/abc123");
  });

  it("registers as pending_validation with the CNAME target and what is missing", async () => {
    const site = await renderedBlog();
    const hostname = uniqueHost();
    const { status, body } = await register(site, hostname);
    expect(status).toBe(201);
    expect(body.customHostname).toMatchObject({ hostname, cnameTarget: "ssr.api.test", sslStatus: "pending_validation" });
    expect(body.customHostname.missing!.join("\n")).toMatch(new RegExp(`http://${hostname}/\\.well-known/oc-hostname/[0-9a-f]{32}`));
    expect((await view(site)).body.customHostname.sslStatus).toBe("pending_validation");
    expect((await onHost(hostname, "/")).status).toBe(404);
  });

  it("becomes active once a request with its token reaches the service, then serves every path", async () => {
    const site = await renderedBlog();
    const hostname = uniqueHost();
    const { body } = await register(site, hostname);
    await proveOwnership(body.customHostname);
    const wrong = await onHost(hostname, "/.well-known/oc-hostname/00000000000000000000000000000000");
    expect(wrong.status).toBe(404);
    const ok = await validate(hostname, body.customHostname);
    expect(ok.status).toBe(200);
    const v = (await view(site)).body.customHostname;
    expect(v.sslStatus).toBe("active");
    expect(v.missing).toBeUndefined();

    const list = await onHost(hostname, "/");
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain("Hello from the custom host");
    expect(html).toContain('href="/hello"');
    const item = await onHost(hostname, "/hello");
    expect(item.status).toBe(200);
    expect(await item.text()).toContain(`<link rel="canonical" href="https://${hostname}/hello">`);
    expect((await onHost(hostname, "/nope")).status).toBe(404);
    const robots = await onHost(hostname, "/robots.txt");
    expect(await robots.text()).toBe(`User-agent: *\nAllow: /\n\nSitemap: https://${hostname}/sitemap.xml\n`);
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    await runDurableObjectAlarm(stub);
    const sitemap = await (await onHost(hostname, "/sitemap.xml")).text();
    expect(sitemap).toContain(`<loc>https://${hostname}/hello</loc>`);
    expect((await onHost(hostname.toUpperCase(), "/")).status).toBe(200);
  });

  it("is detached at once by DELETE, and the hostname is free again", async () => {
    const site = await renderedBlog();
    const hostname = uniqueHost();
    await activeOn(site, hostname);
    expect((await onHost(hostname, "/")).status).toBe(200);
    const del = await callJson("DELETE", `/sites/${site.id}/ssr/custom-hostname`, { auth: site.adminKey });
    expect(del.body).toEqual({ detached: [hostname] });
    expect((await onHost(hostname, "/")).status).toBe(404);
    expect((await view(site)).status).toBe(404);
    const other = await renderedBlog();
    expect((await register(other, hostname)).status).toBe(201);
  });

  it("can be deleted while pending, which stops the status checks", async () => {
    const site = await renderedBlog();
    const hostname = uniqueHost();
    await register(site, hostname);
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    const jobsBefore = await runInDurableObject(
      stub,
      (_i, state) => state.storage.sql.exec("SELECT * FROM jobs WHERE kind = 'hostname-check'").toArray().length,
    );
    expect(jobsBefore).toBe(1);
    await callJson("DELETE", `/sites/${site.id}/ssr/custom-hostname`, { auth: site.adminKey });
    const jobsAfter = await runInDurableObject(
      stub,
      (_i, state) => state.storage.sql.exec("SELECT * FROM jobs WHERE kind = 'hostname-check'").toArray().length,
    );
    expect(jobsAfter).toBe(0);
    expect((await onHost(hostname, "/")).status).toBe(404);
  });

  it("belongs to at most one site: once a site proved it, a second site gets 409 conflict", async () => {
    const a = await renderedBlog();
    const b = await renderedBlog();
    const hostname = uniqueHost();
    await proveOwnership((await register(a, hostname)).body.customHostname);
    expect((await register(a, hostname)).body.customHostname.ownershipVerification?.verified).toBe(true);
    const { status, body } = await register(b, hostname);
    expect(status).toBe(409);
    expect(body).toMatchObject({ error: { code: "conflict" } });
    expect((await register(a, hostname)).status).toBe(200);
  });

  it("keeps a pending hostname when the one meant to replace it is refused", async () => {
    const site = await renderedBlog();
    const pending = uniqueHost("pending");
    const taken = uniqueHost("taken");
    const holder = await renderedBlog();
    await proveOwnership((await register(holder, taken)).body.customHostname);
    expect((await register(holder, taken)).body.customHostname.ownershipVerification?.verified).toBe(true);
    expect((await register(site, pending)).status).toBe(201);
    expect((await register(site, taken)).status).toBe(409);
    expect((await view(site)).body.customHostname).toMatchObject({ hostname: pending, sslStatus: "pending_validation" });
  });

  it("is replaced by a new hostname only once the new one is active", async () => {
    const site = await renderedBlog();
    const first = uniqueHost("first");
    const second = uniqueHost("second");
    await activeOn(site, first);
    const { body } = await register(site, second);
    const v = await view(site);
    expect(v.body.customHostname).toMatchObject({ hostname: second, sslStatus: "pending_validation" });
    expect(v.body.replacing).toMatchObject({ hostname: first, sslStatus: "active" });
    expect((await onHost(first, "/")).status).toBe(200);
    await proveOwnership(body.customHostname);
    await validate(second, body.customHostname);
    expect((await onHost(second, "/")).status).toBe(200);
    expect((await onHost(first, "/")).status).toBe(404);
    expect((await view(site)).body.replacing).toBeUndefined();
    expect((await register(await renderedBlog(), first)).status).toBe(201);
  });

  it("is checked by the alarm with growing delays until it is active", async () => {
    const site = await renderedBlog();
    const hostname = uniqueHost();
    const { body } = await register(site, hostname);
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    const job = () =>
      runInDurableObject(
        stub,
        (_i, state) => state.storage.sql.exec<{ run_at: number }>("SELECT run_at FROM jobs WHERE kind = 'hostname-check'").toArray()[0],
      );
    const due = async () => {
      await runInDurableObject(stub, async (_i, state) => {
        state.storage.sql.exec("UPDATE jobs SET run_at = ? WHERE kind = 'hostname-check'", Date.now() - 1);
        await state.storage.setAlarm(Date.now() - 1);
      });
      await runDurableObjectAlarm(stub);
    };
    const first = (await job())!.run_at - Date.now();
    expect(first).toBeGreaterThan(20_000);
    await due();
    const second = (await job())!.run_at - Date.now();
    await due();
    const third = (await job())!.run_at - Date.now();
    expect(second).toBeGreaterThan(first);
    expect(third).toBeGreaterThan(second);
    await proveOwnership(body.customHostname);
    await validate(hostname, body.customHostname);
    expect(await job()).toBeUndefined();
  });

  it("lets a hostname go that is not validated within seven days, so its owner can connect it", async () => {
    const site = await renderedBlog();
    const hostname = uniqueHost();
    expect((await register(site, hostname)).status).toBe(201);
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    await runInDurableObject(stub, async (_i, state) => {
      const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600_000).toISOString();
      state.storage.sql.exec("UPDATE custom_hostnames SET created_at = ?", eightDaysAgo);
      state.storage.sql.exec("UPDATE jobs SET run_at = ? WHERE kind = 'hostname-check'", Date.now() - 1);
      await state.storage.setAlarm(Date.now() - 1);
    });
    await runDurableObjectAlarm(stub);
    expect((await view(site)).status).toBe(404);
    expect((await register(await renderedBlog(), hostname)).status).toBe(201);
  });

  it("validates what customers type", async () => {
    const site = await renderedBlog();
    const bad = [
      "https://blog.example.com",
      "blog.example.com/path",
      "blog.example.com:8443",
      "192.168.1.1",
      "[::1]",
      "localhost",
      "-bad.example.com",
      "a".repeat(64) + ".example.com",
      "",
      "two words.example.com",
    ];
    for (const hostname of bad) {
      const { status, body } = await register(site, hostname);
      expect(status, hostname).toBe(400);
      expect(body, hostname).toMatchObject({ error: { code: "bad_request" } });
    }
    const idn = await register(site, `Bücher-${crypto.randomUUID().slice(0, 6)}.Example.TEST`);
    expect(idn.status).toBe(201);
    expect(idn.body.customHostname.hostname).toMatch(/^xn--bcher-.*\.example\.test$/);
  });

  it("answers unknown hostnames with 404 and needs the SEO Engine plan", async () => {
    expect((await onHost(uniqueHost("unknown"), "/")).status).toBe(404);
    const starter = await newBlog("starter");
    const { status, body } = await register(starter, uniqueHost());
    expect(status).toBe(403);
    expect(body).toMatchObject({ error: { code: "plan_required" } });
  });
});
