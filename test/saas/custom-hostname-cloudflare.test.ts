import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, callJson } from "../helpers";
import { checkAnswer } from "../contract/document";
import { onHost, proveOwnership, register, renderedBlog, uniqueHost, view } from "../hostname-helpers";

// This project runs with CUSTOM_HOSTNAMES="cloudflare", the Cloudflare API mock as the outbound service.
const advance = (hostname: string, status: string, sslStatus: string) =>
  fetch("https://api.cloudflare.test/__mock/advance", { method: "POST", body: JSON.stringify({ hostname, status, sslStatus }) });

describe("custom hostnames on Cloudflare for SaaS (mocked API)", () => {
  it("go pending_validation → pending_issuance → active through alarm checks, then serve", async () => {
    const site = await renderedBlog();
    const hostname = uniqueHost();
    const { status, body } = await register(site, hostname);
    expect(status).toBe(201);
    expect(body.customHostname).toMatchObject({ hostname, cnameTarget: "ssr.example.net", sslStatus: "pending_validation" });
    expect(body.customHostname.missing).toContain(`a CNAME record ${hostname} → ssr.example.net at your DNS provider`);
    // Cloudflare for SaaS names the ownership record itself; it is what the customer must publish.
    expect(body.customHostname.ownershipVerification).toMatchObject({
      type: "txt",
      name: `_cf-custom-hostname.${hostname}`,
      verified: false,
    });

    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    const check = async () => {
      await runInDurableObject(stub, async (_i, state) => {
        state.storage.sql.exec("UPDATE jobs SET run_at = ? WHERE kind = 'hostname-check'", Date.now() - 1);
        await state.storage.setAlarm(Date.now() - 1);
      });
      await runDurableObjectAlarm(stub);
    };

    await check();
    expect((await view(site)).body.customHostname.sslStatus).toBe("pending_validation");
    expect((await onHost(hostname, "/")).status).toBe(404);

    expect((await advance(hostname, "active", "pending_issuance")).status).toBe(200);
    await check();
    const issuing = (await view(site)).body.customHostname;
    expect(issuing.sslStatus).toBe("pending_issuance");
    expect((await onHost(hostname, "/")).status).toBe(404);

    await advance(hostname, "active", "active");
    await check();
    // Cloudflare serves it, but the TXT record was never published: not ours to route yet.
    expect((await view(site)).body.customHostname.sslStatus).not.toBe("active");
    expect((await onHost(hostname, "/")).status).toBe(404);
    await proveOwnership(body.customHostname);
    await check();
    const active = (await view(site)).body.customHostname;
    expect(active.sslStatus).toBe("active");
    expect(active.missing).toBeUndefined();
    expect((await onHost(hostname, "/")).status).toBe(200);
    const jobs = await runInDurableObject(
      stub,
      (_i, state) => state.storage.sql.exec("SELECT * FROM jobs WHERE kind = 'hostname-check'").toArray().length,
    );
    expect(jobs).toBe(0);
  });

  it("delete while pending removes it from the provider too", async () => {
    const site = await renderedBlog();
    const hostname = uniqueHost();
    await register(site, hostname);
    const del = await callJson("DELETE", `/sites/${site.id}/ssr/custom-hostname`, { auth: site.adminKey });
    expect(del.body).toEqual({ detached: [hostname] });
    expect((await advance(hostname, "active", "active")).status).toBe(404);
    expect((await register(site, hostname)).status).toBe(201);
  });

  it("a status check and a new registration at the same time never drop the hostname that serves", async () => {
    const site = await renderedBlog();
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    const due = () =>
      runInDurableObject(stub, async (_i, state) => {
        state.storage.sql.exec("UPDATE jobs SET run_at = ? WHERE kind = 'hostname-check'", Date.now() - 1);
        await state.storage.setAlarm(Date.now() - 1);
      });
    const a = uniqueHost("a");
    await proveOwnership((await register(site, a)).body.customHostname);
    await advance(a, "active", "active");
    await due();
    await runDurableObjectAlarm(stub);
    expect((await onHost(a, "/")).status).toBe(200);

    const b = uniqueHost("b");
    await proveOwnership((await register(site, b)).body.customHostname);
    await advance(b, "active", "active");
    await fetch("https://api.cloudflare.test/__mock/delay", { method: "POST", body: JSON.stringify({ hostname: b, ms: 300 }) });
    await due();
    const checking = runDurableObjectAlarm(stub);
    await new Promise((r) => setTimeout(r, 50));
    const c = uniqueHost("c");
    expect((await register(site, c)).status).toBe(201);
    await checking;
    // B became active while C waited its turn; C then replaced the pending slot. Something always serves.
    const v = (await view(site)).body;
    expect(v.customHostname).toMatchObject({ hostname: c, sslStatus: "pending_validation" });
    expect(v.replacing).toMatchObject({ hostname: b, sslStatus: "active" });
    expect((await onHost(b, "/")).status).toBe(200);
    expect((await onHost(a, "/")).status).toBe(404);
  });

  it("answer 502 bad_gateway, as openapi.json documents, when the provider fails", async () => {
    const site = await renderedBlog();
    const path = `/sites/${site.id}/ssr/custom-hostname`;
    const res = await call("POST", path, { auth: site.adminKey, body: { hostname: uniqueHost("refused") } });
    const { answer, problems } = await checkAnswer("putCustomHostname", "POST", path, res);
    expect(answer).toBe("putCustomHostname 502 bad_gateway");
    expect(problems).toEqual([]);
  });
});
