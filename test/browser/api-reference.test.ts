import { readFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launch, service } from "./harness";

const committed = JSON.parse(readFileSync(new URL("../../openapi.json", import.meta.url), "utf8")) as Record<string, unknown>;

describe("the API description", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(committed);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("is served at /openapi.json, cacheable and readable from any origin", async () => {
    const res = await fetch(`${service()}/openapi.json`, { headers: { origin: "https://elsewhere.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300, s-maxage=86400");
    expect(await res.json()).toEqual(committed);
  });

  describe("at /docs", () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launch();
    });
    afterAll(() => browser?.close());

    it("renders every operation in Chromium with nothing fetched from anywhere but the service", async () => {
      const page = await browser.newPage();
      const elsewhere: string[] = [];
      await page.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith(service())) return route.continue();
        elsewhere.push(url);
        return route.abort();
      });
      await page.goto(`${service()}/docs`);
      await page.waitForSelector(".opblock-summary-path", { timeout: 30_000 });
      // Swagger UI renders a long list of operations virtually (only the rows near the
      // viewport are in the DOM), so the test reads the page the way a reader does:
      // scrolling to the end, noting each operation as it appears.
      const seen = new Set<string>();
      for (let step = 0; step < 400; step++) {
        for (const id of await page.$$eval(".opblock[id]", (els) => els.map((e) => e.id))) seen.add(id);
        const atEnd = await page.evaluate(() => {
          const before = window.scrollY;
          window.scrollBy(0, window.innerHeight / 2);
          return window.scrollY === before;
        });
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        if (atEnd) break;
      }
      for (const id of await page.$$eval(".opblock[id]", (els) => els.map((e) => e.id))) seen.add(id);
      const documented = Object.values(committed.paths as Record<string, Record<string, { tags: string[]; operationId: string }>>)
        .flatMap((p) => Object.values(p))
        .map((op) => `operations-${op.tags[0]!.replaceAll(" ", "_")}-${op.operationId}`);
      expect([...seen].sort()).toEqual([...documented].sort());
      expect(await page.textContent(".info .title")).toContain("open-content-edge");
      if (process.env.DOCS_SCREENSHOT) await page.screenshot({ path: process.env.DOCS_SCREENSHOT, fullPage: false });
      expect(elsewhere).toEqual([]);
      await page.close();
    });
  });
});
