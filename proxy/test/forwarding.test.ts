import { describe, expect, it, inject } from "vitest";
import worker from "../src/index";

const env = () => ({ SSR_URL: inject("upstream"), SERVICE_TOKEN: "pk_testsite0000000_secretsecretsecretsecret" });

async function proxied(path: string, init: RequestInit = {}): Promise<Response> {
  return worker.fetch(new Request(`https://www.customer.com${path}`, init), env());
}

interface Echo {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string;
}

describe("the reverse-proxy Worker", () => {
  it("forwards path and query string to SSR_URL and adds x-service-token", async () => {
    const echo = (await (await proxied("/blog/my-post?utm_source=x&page=2")).json()) as Echo;
    expect(echo.path).toBe("/blog/my-post");
    expect(echo.query).toBe("?utm_source=x&page=2");
    expect(echo.headers["x-service-token"]).toBe(env().SERVICE_TOKEN);
  });

  it("with PROXY_KEY, names the visitor beside the key; a visitor's own claims are dropped", async () => {
    const headers = { "cf-connecting-ip": "203.0.113.7", "x-visitor-ip": "198.51.100.1", "x-proxy-key": "px_forged" };
    const keyed = await worker.fetch(new Request("https://www.customer.com/blog/", { headers }), { ...env(), PROXY_KEY: "px_real" });
    const echo = (await keyed.json()) as Echo;
    expect(echo.headers["x-proxy-key"]).toBe("px_real");
    expect(echo.headers["x-visitor-ip"]).toBe("203.0.113.7");
    // Without the key (a proxy deployed before it), nothing the visitor claims goes upstream.
    const plain = (await (await proxied("/blog/", { headers })).json()) as Echo;
    expect(plain.headers["x-proxy-key"]).toBeUndefined();
    expect(plain.headers["x-visitor-ip"]).toBeUndefined();
  });

  it("keeps the method, every incoming header and the body", async () => {
    const res = await proxied("/blog/form", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "fr", cookie: "session=abc", "x-custom": "1" },
      body: "name=Ada&msg=hi",
    });
    const echo = (await res.json()) as Echo;
    expect(echo.method).toBe("POST");
    expect(echo.body).toBe("name=Ada&msg=hi");
    expect(echo.headers).toMatchObject({
      "content-type": "application/x-www-form-urlencoded",
      "accept-language": "fr",
      cookie: "session=abc",
      "x-custom": "1",
    });
    for (const method of ["PUT", "DELETE", "PATCH"])
      expect(((await (await proxied("/blog/x", { method, body: method === "DELETE" ? null : "b" })).json()) as Echo).method).toBe(method);
  });

  it("returns the upstream status and headers unchanged", async () => {
    const res = await proxied("/status/418");
    expect(res.status).toBe(418);
    expect(res.headers.get("x-upstream")).toBe("yes");
    expect(res.headers.get("cache-control")).toBe("private, max-age=7");
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(await res.text()).toBe("status 418");
  });

  it("does not follow redirects", async () => {
    const res = await proxied("/redirect");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/elsewhere");
  });

  it("streams the body back", async () => {
    const res = await proxied("/blog/");
    expect(res.body).toBeInstanceOf(ReadableStream);
    expect(res.headers.get("x-upstream")).toBe("echo");
  });

  it("refuses to run without its configuration", async () => {
    const res = await worker.fetch(new Request("https://www.customer.com/blog/"), { SSR_URL: "", SERVICE_TOKEN: "" });
    expect(res.status).toBe(500);
  });
});
