import { describe, expect, it } from "vitest";
import { callJson } from "../helpers";
import { activeOn, onHost, proveOwnership, publishTxt, register, renderedBlog, uniqueHost, validate, view } from "../hostname-helpers";

describe("custom hostnames need a DNS proof of control (TXT through DNS over HTTPS)", () => {
  it("each site is given its own TXT record for a hostname, shown in the POST and GET answers", async () => {
    const site = await renderedBlog();
    const hostname = uniqueHost();
    const { status, body } = await register(site, hostname);
    expect(status).toBe(201);
    const own = body.customHostname.ownershipVerification!;
    expect(own).toMatchObject({ type: "txt", name: `_oc-challenge.${hostname}`, verified: false });
    expect(own.value).toMatch(/^oc-site-verification=[0-9a-f]{32}$/);
    expect(body.customHostname.missing![0]).toContain(`TXT record _oc-challenge.${hostname} with the value ${own.value}`);
    expect((await view(site)).body.customHostname.ownershipVerification).toEqual(own);
    const other = await register(await renderedBlog(), uniqueHost());
    expect(other.body.customHostname.ownershipVerification!.value).not.toBe(own.value);
    // Another site naming the same hostname is given another value.
    const rival = await register(await renderedBlog(), hostname);
    expect(rival.body.customHostname.ownershipVerification!.value).not.toBe(own.value);
  });

  it("reaching the service (the CNAME) is not enough: it goes active only once the TXT record is published", async () => {
    const site = await renderedBlog();
    const hostname = uniqueHost();
    const { body } = await register(site, hostname);
    expect((await validate(hostname, body.customHostname)).status).toBe(200);
    expect((await view(site)).body.customHostname.sslStatus).toBe("pending_validation");
    expect((await onHost(hostname, "/")).status).toBe(404);
    // A wrong value proves nothing.
    await publishTxt(body.customHostname.ownershipVerification!.name, "oc-site-verification=0123456789abcdef0123456789abcdef");
    expect((await register(site, hostname)).status).toBe(200);
    expect((await onHost(hostname, "/")).status).toBe(404);
    // Registering it again after publishing the record checks it at once.
    await proveOwnership(body.customHostname);
    const again = await register(site, hostname);
    expect(again.status).toBe(200);
    expect(again.body.customHostname).toMatchObject({ sslStatus: "active", ownershipVerification: { verified: true } });
    expect((await onHost(hostname, "/")).status).toBe(200);
  });

  it("a hostname another site detached does not go active for a new site on the old owner's DNS records", async () => {
    const a = await renderedBlog();
    const hostname = uniqueHost("moved");
    await activeOn(a, hostname);
    expect((await onHost(hostname, "/")).status).toBe(200);
    // A lets go; its CNAME and its TXT record stay in DNS, as they usually do.
    await callJson("DELETE", `/sites/${a.id}/ssr/custom-hostname`, { auth: a.adminKey });
    const b = await renderedBlog();
    const { status, body } = await register(b, hostname);
    expect(status).toBe(201);
    expect((await validate(hostname, body.customHostname)).status).toBe(200);
    expect((await register(b, hostname)).body.customHostname.sslStatus).toBe("pending_validation");
    expect((await onHost(hostname, "/")).status).toBe(404);
    // B's own record (the hostname's owner publishing it for B) is what makes it B's.
    await proveOwnership(body.customHostname);
    expect((await register(b, hostname)).body.customHostname.sslStatus).toBe("active");
    expect(await (await onHost(hostname, "/")).text()).toContain("Hello from the custom host");
  });

  it("a stranger who registers a hostname first and never proves it does not lock its owner out", async () => {
    const stranger = await renderedBlog();
    const owner = await renderedBlog();
    const hostname = uniqueHost("squatted");
    const squat = await register(stranger, hostname);
    expect(squat.status).toBe(201);
    // The real owner registers the same name: not 409, the unproven claim gives way.
    const { status, body } = await register(owner, hostname);
    expect(status).toBe(201);
    expect(body.customHostname.ownershipVerification!.value).not.toBe(squat.body.customHostname.ownershipVerification!.value);
    // The stranger's site no longer holds it: no record there, and its old validation URL proves nothing.
    expect((await view(stranger)).status).toBe(404);
    expect((await validate(hostname, squat.body.customHostname)).status).toBe(404);
    // The owner publishes its TXT record and the CNAME reaches the service: active, serving the owner's site.
    await proveOwnership(body.customHostname);
    expect((await validate(hostname, body.customHostname)).status).toBe(200);
    expect((await view(owner)).body.customHostname).toMatchObject({ hostname, sslStatus: "active" });
    expect(await (await onHost(hostname, "/")).text()).toContain("Hello from the custom host");
    // Once proven, the name is no longer up for grabs: the stranger now gets 409.
    const again = await register(stranger, hostname);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: { code: "conflict" } });
    expect((await view(owner)).body.customHostname.sslStatus).toBe("active");
  });

  it("a stranger re-registering a hostname cannot change the TXT value its owner already published", async () => {
    const owner = await renderedBlog();
    const stranger = await renderedBlog();
    const hostname = uniqueHost("rotated");
    const first = await register(owner, hostname);
    expect(first.status).toBe(201);
    const value = first.body.customHostname.ownershipVerification!.value;
    // The owner publishes its record; before any check sees it, a stranger takes the unproven claim over.
    await proveOwnership(first.body.customHostname);
    const squat = await register(stranger, hostname);
    expect(squat.status).toBe(201);
    expect(squat.body.customHostname.ownershipVerification!.value).not.toBe(value);
    expect((await view(owner)).status).toBe(404);
    // The owner registers again and is given the value already in DNS, not a new one to publish.
    const again = await register(owner, hostname);
    expect(again.status).toBe(201);
    expect(again.body.customHostname.ownershipVerification!.value).toBe(value);
    // The record is already in DNS: this registration saw it at once, so the stranger cannot take
    // the name over again before any later check (a stranger re-registering every second could).
    expect(again.body.customHostname.ownershipVerification!.verified).toBe(true);
    expect((await register(stranger, hostname)).status).toBe(409);
    expect((await validate(hostname, again.body.customHostname)).status).toBe(200);
    expect((await view(owner)).body.customHostname).toMatchObject({ sslStatus: "active", ownershipVerification: { verified: true } });
    // Proven, the name is no longer up for grabs; a detach and a new registration keep the value too.
    expect((await register(stranger, hostname)).status).toBe(409);
    await callJson("DELETE", `/sites/${owner.id}/ssr/custom-hostname`, { auth: owner.adminKey });
    expect((await register(owner, hostname)).body.customHostname.ownershipVerification!.value).toBe(value);
  });

  it("the service's own hostnames and the CNAME target can never be registered", async () => {
    const site = await renderedBlog();
    for (const hostname of ["api.test", "API.test", "ssr.api.test", "deep.ssr.api.test"]) {
      const { status, body } = await register(site, hostname);
      expect(status, hostname).toBe(400);
      expect(body, hostname).toMatchObject({ error: { code: "bad_request", details: { path: "hostname" } } });
    }
  });
});
