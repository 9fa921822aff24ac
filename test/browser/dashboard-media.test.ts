// The Media screen in Chromium: three images dropped at once upload with progress (the upload is
// throttled through CDP, since loopback finishes in one event), then show in the grid.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { api, service } from "./harness";
import { checkScreen, dashboardBrowser, expectConsoleError, OPERATOR, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();

async function photo(w: number, h: number, colour: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><circle cx="${w / 2}" cy="${h / 2}" r="${h / 3}" fill="${colour}"/></svg>`;
  // Noise makes the files large enough (hundreds of KB) for the throttled upload to show progress.
  const noise = await sharp({
    create: { width: w, height: h, channels: 3, background: "#888", noise: { type: "gaussian", mean: 128, sigma: 40 } },
  })
    .composite([{ input: Buffer.from(svg), blend: "over" }])
    .jpeg({ quality: 95 })
    .toBuffer();
  return noise.toString("base64");
}

describe("the Media screen", () => {
  it("uploads three dropped images with a progress bar each, then lists them with name, size and dimensions", async () => {
    const { site } = await api<{ site: { id: string; adminKey: string } }>("POST", "/sites", OPERATOR, { name: "Media", plan: "pro" });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/media`);
    const zone = page.getByRole("button", { name: /Drop files here/ });
    await zone.waitFor();
    const files = [
      { name: "red.jpg", b64: await photo(900, 600, "#c33") },
      { name: "green.jpg", b64: await photo(800, 800, "#3a3") },
      { name: "blue.jpg", b64: await photo(600, 900, "#33c") },
    ];
    // Slow the uploads down so that progress is visible between the first and the last byte.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    });
    // Record every value each progress bar takes.
    await page.evaluate(() => {
      const w = window as unknown as { seen: Record<string, number[][]> };
      w.seen = {};
      new MutationObserver(() => {
        for (const p of Array.from(document.querySelectorAll<HTMLProgressElement>("progress[aria-label^='Uploading ']"))) {
          const k = p.getAttribute("aria-label")!;
          (w.seen[k] ??= []).push([p.value, p.max]);
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    const dt = await page.evaluateHandle((list) => {
      const d = new DataTransfer();
      for (const f of list) d.items.add(new File([Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0))], f.name, { type: "image/jpeg" }));
      return d;
    }, files);
    await zone.dispatchEvent("dragenter", { dataTransfer: dt });
    await zone.dispatchEvent("drop", { dataTransfer: dt });
    await page.getByText("3 of 3 uploaded").waitFor({ timeout: 60_000 });
    const seen = await page.evaluate(() => (window as unknown as { seen: Record<string, number[][]> }).seen);
    for (const f of files) {
      const values = seen[`Uploading ${f.name}`] ?? [];
      // Some value strictly between nothing and all of it: real progress, not a jump.
      expect(
        values.some(([v, max]) => v! > 0 && v! < max!),
        `${f.name}: ${JSON.stringify(values.slice(0, 5))}`,
      ).toBe(true);
    }
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    for (const [name, dims] of [
      ["red.jpg", "900×600"],
      ["green.jpg", "800×800"],
      ["blue.jpg", "600×900"],
    ] as const) {
      await page.getByText(new RegExp(`${name.replace(".", "\\.")} · ${dims} · \\d`)).waitFor();
    }
    // Every preview really loads (its srcset candidate is a variant the service made).
    await expect
      .poll(
        () =>
          page.$$eval(".media-card img", (imgs) =>
            imgs.map((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
          ),
        {
          timeout: 30_000,
        },
      )
      .toEqual([true, true, true]);
    await checkScreen(page, "60-media-uploaded");
    const list = await api<{ media: { name: string; type: string }[] }>("GET", `/sites/${site.id}/media`, site.adminKey);
    expect(list.media.map((m) => m.name).sort()).toEqual(["blue.jpg", "green.jpg", "red.jpg"]);

    // A file refused for what it is (415) says why and offers no Retry: sending it again cannot help.
    expectConsoleError(`status of 415 (Unsupported Media Type) (${service()}/sites/${site.id}/media/files)`);
    const text = await page.evaluateHandle(() => {
      const d = new DataTransfer();
      d.items.add(new File(["just some words"], "notes.txt", { type: "text/plain" }));
      return d;
    });
    await zone.dispatchEvent("dragenter", { dataTransfer: text });
    await zone.dispatchEvent("drop", { dataTransfer: text });
    await page
      .getByRole("alert")
      .filter({ hasText: /^notes\.txt: .*image\/jpeg/ })
      .waitFor();
    expect(await page.getByRole("button", { name: "Retry notes.txt" }).count()).toBe(0);
    await page.close();
  });
});
