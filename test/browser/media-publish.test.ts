// Uploaded media end to end, in Chromium: a site owner drags a photo onto an item's image field,
// publishes, describes it on the Media screen, and the server-rendered page and the embed both
// show it responsively (src, srcset, alt; every srcset candidate is an image of the width it
// claims). Then the Media screen's whole upload flow by keyboard alone, with axe.
import sharp from "sharp";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { itemPage } from "../fixtures/blog-pages";
import { api, blogSite, pageServer, putPage, renderedByServer, service } from "./harness";
import { checkScreen, dashboardBrowser, expectConsoleError, signIn } from "./dashboard-harness";

const { newPage, browser } = dashboardBrowser();

async function photo(w: number, h: number): Promise<Buffer> {
  return sharp({ create: { width: w, height: h, channels: 3, background: "#b33" } })
    .composite([
      {
        input: Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect x="${w / 3}" y="${h / 4}" width="${w / 3}" height="${h / 2}" fill="#fff"/></svg>`,
        ),
      },
    ])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** Every candidate of a srcset answers an image exactly as wide as it says. */
async function srcsetHolds(srcset: string): Promise<number[]> {
  const widths: number[] = [];
  for (const candidate of srcset.split(",").map((c) => c.trim())) {
    const [url, w] = candidate.split(/\s+/);
    const res = await fetch(url!, { headers: { accept: "image/webp,image/*" } });
    expect(res.status, url).toBe(200);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(`${meta.width}w`, url).toBe(w);
    widths.push(meta.width!);
  }
  return widths;
}

/** Presses Tab until the focused element's accessible name matches (as a keyboard user would find it). */
async function tabTo(page: Page, name: RegExp, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return "";
      const labelled = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
      return el.getAttribute("aria-label") ?? labelled ?? el.textContent ?? "";
    });
    if (name.test(focused.trim())) return;
  }
  throw new Error(`Tab never reached ${name}`);
}

describe("an uploaded cover, published", () => {
  it("dropped onto the item's image field, published: the rendered page and the embed show it responsively", async () => {
    const site = await blogSite();
    const base = `/media-${site.id}/blog/`;
    const pageUrl = await putPage(`${base}red-door`, itemPage({ service: service(), token: site.token }));
    await api("PUT", `/sites/${site.id}/ssr/capture`, site.adminKey, {
      pageUrl,
      publicUrl: `${new URL(pageUrl).origin}${base}`,
      collection: "posts",
      showsList: false,
    });

    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/posts/new`);
    await page.getByLabel("title (required)").fill("The red door");
    await page.getByLabel("Slug").fill("red-door");
    const zone = page.getByRole("button", { name: /Drop an image for cover/ });
    const jpeg = await photo(2400, 1600);
    const dt = await page.evaluateHandle((b64) => {
      const d = new DataTransfer();
      d.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], "red-door.jpg", { type: "image/jpeg" }));
      return d;
    }, jpeg.toString("base64"));
    await zone.dispatchEvent("dragenter", { dataTransfer: dt });
    await zone.dispatchEvent("drop", { dataTransfer: dt });
    await page.getByText("1 of 1 uploaded").waitFor({ timeout: 30_000 });
    await page
      .getByRole("img", { name: /cover preview/ })
      .first()
      .waitFor();
    // Described where it was dropped: saved on the media entry by Enter, which does not submit the item.
    await page.getByLabel("cover: alt text").fill("A red door");
    await page.keyboard.press("Enter");
    await page.getByText("Alt text saved.").waitFor();
    await checkScreen(page, "61-item-cover-alt-saved");
    expect((await api<{ items: unknown[] }>("GET", `/sites/${site.id}/collections/posts/items`, site.adminKey)).items).toEqual([]);
    await page.getByRole("button", { name: "Save and publish" }).click();
    await page.getByText("Published.").waitFor();

    // Changed on the Media screen; every item showing it follows.
    await page.goto(`${service()}/dashboard/#/${site.id}/media`);
    const altInput = page.getByLabel("Alt text for red-door.jpg");
    await expect.poll(() => altInput.inputValue()).toBe("A red door");
    await altInput.fill("A red door with a white panel");
    await page.getByRole("button", { name: "Save alt text for red-door.jpg" }).click();
    await page.getByText("Alt text saved.").waitFor();
    await checkScreen(page, "61-media-cover-described");
    await page.close();

    // The server-rendered page, as the customer's proxy gets it.
    const { status, html } = await renderedByServer(site, `${base}red-door`);
    expect(status).toBe(200);
    const img = /<img class="hero" data-oc-field="cover" src="([^"]+)" alt="([^"]*)" srcset="([^"]+)"/.exec(html);
    expect(img, html.slice(0, 2000)).not.toBeNull();
    const [, src, alt, srcset] = img!;
    expect(alt).toBe("A red door with a white panel");
    expect(src).toMatch(new RegExp(`/m/${site.id}/md_[^/]+/[0-9a-f]{12}/red-door\\.jpg$`));
    expect(await srcsetHolds(srcset!.replaceAll("&amp;", "&"))).toEqual([320, 640, 960, 1280, 1920, 2000]);
    expect((await fetch(src!)).status).toBe(200);

    // The embed, in Chromium, against the live content API.
    // The shared template's placeholder (/hero.jpg) loads before the embed replaces it, and the page
    // names no icon: the page server has neither. The customer's page, not the service, asks for them.
    expectConsoleError(`status of 404 (Not Found) (${pageServer()}/hero.jpg)`);
    expectConsoleError(`status of 404 (Not Found) (${pageServer()}/favicon.ico)`);
    const embed = await browser().newPage();
    await embed.goto(pageUrl);
    await embed.waitForSelector("[data-oc-item][data-oc-rendered]");
    const hero = await embed.$eval("img.hero", (i) => ({
      src: i.getAttribute("src"),
      srcset: i.getAttribute("srcset"),
      alt: i.getAttribute("alt"),
      complete: (i as HTMLImageElement).complete,
    }));
    expect(hero.alt).toBe("A red door with a white panel");
    expect(hero.src).toBe(src);
    expect(await srcsetHolds(hero.srcset!)).toEqual([320, 640, 960, 1280, 1920, 2000]);
    await expect.poll(() => embed.$eval("img.hero", (i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await embed.close();
  });
});

describe("the Media screen by keyboard alone", () => {
  it("chooses a file, describes it, moves its focal point and deletes it without a pointer; axe finds nothing serious", async () => {
    const { site } = await api<{ site: { id: string; adminKey: string } }>("POST", "/sites", "browser-test-operator", {
      name: "Keyboard media",
      plan: "pro",
    });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/media`);
    await page.getByRole("button", { name: /Drop files here/ }).waitFor();
    // The screen has loaded (its list answered) before the keyboard starts, as a person waits for it.
    await page.getByText("No media yet.").waitFor();
    // The drop zone is a button: Enter opens the file chooser. Listening starts before the first Tab,
    // so that Chromium intercepts the chooser by the time Enter opens it.
    const chooser = page.waitForEvent("filechooser");
    await tabTo(page, /^Drop files here/);
    await page.keyboard.press("Enter");
    await (await chooser).setFiles({ name: "harbour.jpg", mimeType: "image/jpeg", buffer: await photo(1200, 800) });
    await page.getByText("1 of 1 uploaded").waitFor({ timeout: 30_000 });
    await page.getByText(/harbour\.jpg · 1200×800 · /).waitFor();

    await tabTo(page, /^Alt text for harbour\.jpg/);
    await page.keyboard.type("Boats in a harbour at dusk");
    await page.keyboard.press("Enter");
    await page.getByText("Alt text saved.").waitFor();

    await tabTo(page, /^Focal point of harbour\.jpg/);
    await page.keyboard.press("ArrowRight");
    await page.getByText("Focal point: 55% across, 50% down").waitFor();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowDown");
    await page.getByText("Focal point: 60% across, 55% down").waitFor();
    await checkScreen(page, "62-media-keyboard");
    // Saved one after another: the last key pressed is what stays.
    await expect
      .poll(async () => (await api<{ media: { alt: string; focal: unknown }[] }>("GET", `/sites/${site.id}/media`, site.adminKey)).media[0])
      .toMatchObject({ alt: "Boats in a harbour at dusk", focal: { x: 0.6, y: 0.55 } });

    await tabTo(page, /^Delete harbour\.jpg/);
    await page.keyboard.press("Enter");
    await page.getByText("No media yet.").waitFor();
    expect((await api<{ total: number }>("GET", `/sites/${site.id}/media`, site.adminKey)).total).toBe(0);
    await page.close();
  });
});
