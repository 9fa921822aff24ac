/**
 * The production provider against a mock of Cloudflare's custom hostnames API
 * that answers with the documented request and response shapes
 * (POST/GET/DELETE /zones/:zone_id/custom_hostnames[/:id], `{success, errors, messages, result}`).
 */
import { describe, expect, it } from "vitest";
import { CloudflareSaasProvider, ProviderError } from "../actors/site/hostnames/providers";

interface MockHostname {
  id: string;
  hostname: string;
  status: string;
  ssl: { id: string; type: string; method: string; status: string; validation_records?: { http_url: string; http_body: string }[] };
  ownership_verification: { type: string; name: string; value: string };
  created_at: string;
}

class MockCloudflareApi {
  readonly calls: { method: string; path: string; auth: string | null; body: unknown }[] = [];
  readonly hostnames = new Map<string, MockHostname>();

  constructor(
    private readonly zone: string,
    private readonly token: string,
  ) {}

  readonly fetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.method === "POST" ? await request.json() : undefined;
    this.calls.push({ method: request.method, path: url.pathname, auth: request.headers.get("authorization"), body });
    const envelope = (status: number, result: unknown, errors: { code: number; message: string }[] = []) =>
      Response.json({ success: errors.length === 0, errors, messages: [], result }, { status });
    if (request.headers.get("authorization") !== `Bearer ${this.token}`)
      return envelope(403, null, [{ code: 10000, message: "Authentication error" }]);
    const m = new RegExp(`^/client/v4/zones/${this.zone}/custom_hostnames(?:/([^/]+))?$`).exec(url.pathname);
    if (!m)
      return envelope(404, null, [{ code: 7003, message: "Could not route to /zones/x, perhaps your object identifier is invalid?" }]);
    const id = m[1];
    if (request.method === "POST" && !id) {
      const { hostname } = body as { hostname: string };
      if ([...this.hostnames.values()].some((h) => h.hostname === hostname))
        return envelope(409, null, [{ code: 1406, message: "Duplicate custom hostname found." }]);
      const record: MockHostname = {
        id: crypto.randomUUID(),
        hostname,
        status: "pending",
        ssl: {
          id: crypto.randomUUID(),
          type: "dv",
          method: "http",
          status: "pending_validation",
          validation_records: [{ http_url: `http://${hostname}/.well-known/acme-challenge/abc`, http_body: "token" }],
        },
        ownership_verification: { type: "txt", name: `_cf-custom-hostname.${hostname}`, value: crypto.randomUUID() },
        created_at: new Date().toISOString(),
      };
      this.hostnames.set(record.id, record);
      return envelope(200, record);
    }
    const record = id ? this.hostnames.get(id) : undefined;
    if (!record) return envelope(404, null, [{ code: 1436, message: "The custom hostname was not found." }]);
    if (request.method === "GET") return envelope(200, record);
    if (request.method === "DELETE") {
      this.hostnames.delete(record.id);
      return envelope(200, { id: record.id });
    }
    return envelope(405, null, [{ code: 10405, message: "Method not allowed" }]);
  };
}

const setup = () => {
  const api = new MockCloudflareApi("zone123", "secret-token");
  const provider = new CloudflareSaasProvider(
    "zone123",
    "secret-token",
    "ssr.example.net",
    "https://api.cloudflare.com/client/v4",
    api.fetch,
  );
  return { api, provider };
};

describe("Cloudflare for SaaS provider", () => {
  it("creates a custom hostname with a DV certificate validated over HTTP", async () => {
    const { api, provider } = setup();
    const state = await provider.create("blog.customer.com");
    expect(api.calls[0]).toEqual({
      method: "POST",
      path: "/client/v4/zones/zone123/custom_hostnames",
      auth: "Bearer secret-token",
      body: { hostname: "blog.customer.com", ssl: { method: "http", type: "dv", settings: { min_tls_version: "1.2" } } },
    });
    expect(state.sslStatus).toBe("pending_validation");
    expect(state.providerId).toBe([...api.hostnames.keys()][0]);
    expect(state.missing[0]).toBe("a CNAME record blog.customer.com → ssr.example.net at your DNS provider");
    expect(state.missing.join(" ")).toContain("/.well-known/acme-challenge/abc");
  });

  it("follows the certificate through pending_issuance to active", async () => {
    const { api, provider } = setup();
    const { providerId } = await provider.create("shop.customer.com");
    const record = api.hostnames.get(providerId)!;
    record.status = "active";
    record.ssl.status = "pending_issuance";
    delete record.ssl.validation_records;
    expect(await provider.status(providerId)).toEqual({ providerId, sslStatus: "pending_issuance", missing: [] });
    record.ssl.status = "pending_deployment";
    expect((await provider.status(providerId)).sslStatus).toBe("pending_issuance");
    record.ssl.status = "active";
    expect(await provider.status(providerId)).toEqual({ providerId, sslStatus: "active", missing: [] });
    expect(api.calls.at(-1)).toMatchObject({ method: "GET", path: `/client/v4/zones/zone123/custom_hostnames/${providerId}` });
  });

  it("deletes the custom hostname", async () => {
    const { api, provider } = setup();
    const { providerId } = await provider.create("gone.customer.com");
    await provider.remove(providerId);
    expect(api.calls.at(-1)).toMatchObject({ method: "DELETE", path: `/client/v4/zones/zone123/custom_hostnames/${providerId}` });
    expect(api.hostnames.size).toBe(0);
  });

  it("turns API errors into ProviderError with Cloudflare's code", async () => {
    const { provider } = setup();
    await provider.create("dup.customer.com");
    const dup = await provider.create("dup.customer.com").catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(ProviderError);
    expect(dup).toMatchObject({ code: 1406, status: 409 });
    const bad = new CloudflareSaasProvider("zone123", "wrong", "t", "https://api.cloudflare.com/client/v4", setup().api.fetch);
    const denied = await bad.create("x.customer.com").catch((e: unknown) => e);
    expect(denied).toMatchObject({ code: 10000, status: 403 });
    expect((denied as Error).message).toContain("Authentication error");
  });
});
