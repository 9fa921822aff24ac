/**
 * The production provider against a mock of Cloudflare's custom hostnames API
 * that answers with the documented request and response shapes
 * (POST/GET/DELETE /zones/:zone_id/custom_hostnames[/:id], `{success, errors, messages, result}`).
 */
import { describe, expect, it } from "vitest";
import { CloudflareSaasProvider, ProviderError } from "../actors/site/hostnames/providers";
import { MockCloudflareApi } from "./fixtures/cloudflare-api-mock.mjs";

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
    // Cloudflare's own ownership record is reported at every stage: the owner may need it to finish.
    const ownership = { name: "_cf-custom-hostname.shop.customer.com", value: record.ownership_verification.value };
    expect(await provider.status(providerId)).toEqual({ providerId, sslStatus: "pending_issuance", missing: [], ownership });
    record.ssl.status = "pending_deployment";
    expect((await provider.status(providerId)).sslStatus).toBe("pending_issuance");
    record.ssl.status = "active";
    expect(await provider.status(providerId)).toEqual({ providerId, sslStatus: "active", missing: [], ownership });
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
