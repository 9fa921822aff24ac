import { describe, expect, it } from "vitest";
import { call } from "./helpers";

describe("GET /embed.js", () => {
  it("serves the bundled script, cacheable, with CORS and an ETag", async () => {
    const res = await call("GET", "/embed.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toContain("max-age=");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = await res.text();
    expect(body).toContain("data-oc-rendered");
    expect(body).toContain("/v1/");
    const etag = res.headers.get("etag")!;
    expect((await call("GET", "/embed.js", { headers: { "if-none-match": etag } })).status).toBe(304);
  });

  it("stays under 10 KB gzipped", async () => {
    const body = await (await call("GET", "/embed.js")).arrayBuffer();
    const gz = await new Response(new Blob([body]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
    expect(gz.byteLength).toBeLessThan(10 * 1024);
  });
});
