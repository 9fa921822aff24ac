// A shop owner's product photos from the dashboard alone: a gallery field made in the collection
// editor, filled by uploading and by picking from the library, reordered with buttons, each image
// described, and the order kept through save and reload; at a desktop's width and a phone's.
import sharp from "sharp";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, service } from "./harness";
import { checkScreen, dashboardBrowser, OPERATOR, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();

async function photo(background: string): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

interface Site {
  id: string;
  adminKey: string;
}

const mediaUrls = async (site: Site): Promise<Map<string, string>> =>
  new Map(
    (await api<{ media: { mediaId: string; url: string }[] }>("GET", `/sites/${site.id}/media`, site.adminKey)).media.map((m) => [
      m.mediaId,
      m.url,
    ]),
  );

/** The gallery's images as the form shows them, in order: each thumbnail's address. */
const shownOrder = (page: Page) => page.locator(".gallery-entry img.thumb").evaluateAll((els) => els.map((e) => e.getAttribute("src")));

describe("dashboard: a product's gallery", () => {
  for (const width of [1280, 390]) {
    it(`builds a gallery by upload and pick, reorders and describes it, and keeps the order (${width} px)`, async () => {
      const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: `Gallery shop ${width}`, plan: "pro" });
      const page = await newPage(width);
      await signIn(page, site.adminKey);

      // One photo is in the library already, uploaded on the Media screen.
      await page.goto(`${service()}/dashboard/#/${site.id}/media`);
      await page.getByText("No media yet.").waitFor();
      await page.locator('input[type="file"]').setInputFiles({ name: "side.jpg", mimeType: "image/jpeg", buffer: await photo("#2a7") });
      await page.getByText("1 of 1 uploaded").waitFor({ timeout: 30_000 });

      await page.goto(`${service()}/dashboard/#/${site.id}/collection/new`);
      await page.getByLabel("Collection name").fill("Products");
      await page.getByRole("button", { name: "Add a field" }).click();
      const n = await page.locator(".field-row").count();
      await page.getByLabel(`Field ${n} key`).fill("photos");
      await page.getByLabel(`Field ${n} type`).selectOption({ label: "Gallery (several images)" });
      await page.getByRole("button", { name: "Create collection" }).click();
      await page.getByRole("heading", { name: "Products" }).waitFor();

      await page.getByRole("link", { name: "New item" }).click();
      await page.getByLabel("title (required)").fill("Oak planter");
      const gallery = page.locator("fieldset.gallery-input");
      await gallery.getByText("No images yet").waitFor();
      // Two uploaded at once, in the order chosen, then the library's photo picked.
      await gallery.locator('input[type="file"]').setInputFiles([
        { name: "front.jpg", mimeType: "image/jpeg", buffer: await photo("#b33") },
        { name: "back.jpg", mimeType: "image/jpeg", buffer: await photo("#33b") },
      ]);
      await gallery.getByText("2 of 2 uploaded").waitFor({ timeout: 30_000 });
      await expect.poll(() => page.locator(".gallery-entry").count()).toBe(2);
      // A PDF dropped here is refused before it is sent, with what to do instead.
      await gallery
        .locator('input[type="file"]')
        .setInputFiles({ name: "care-guide.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n") });
      await gallery.getByRole("alert").getByText("care-guide.pdf: not an image").waitFor();
      expect(await gallery.getByRole("alert").textContent()).toContain("add videos and PDFs on the Media screen");
      expect(await page.locator(".gallery-entry").count()).toBe(2);
      const picker = page.getByRole("group", { name: "photos: choose from media" });
      await picker.getByText("side.jpg").waitFor();
      await picker
        .getByRole("checkbox")
        .nth(await pickerIndexOf(page, "side.jpg"))
        .check();
      await expect.poll(() => page.locator(".gallery-entry").count()).toBe(3);

      const before = await shownOrder(page);
      expect(before).toHaveLength(3);

      // The library's photo goes first, by keyboard: two moves up.
      await page.getByRole("button", { name: "Move image 3 up" }).focus();
      await page.keyboard.press("Enter");
      await page.getByRole("button", { name: "Move image 2 up" }).click();
      const moved = await shownOrder(page);
      expect(moved).toEqual([before[2], before[0], before[1]]);

      // Each image's alt text is its media entry's, saved by its own button.
      await page.getByLabel("photos, image 1: alt text").fill("Oak planter from the side");
      await page.getByRole("button", { name: "Save alt text for photos, image 1" }).click();
      await page.getByText("Alt text saved.").first().waitFor();
      await checkScreen(page, `64-item-gallery-${width}`);

      await page.getByRole("button", { name: "Save and publish" }).click();
      await page.getByText("Published", { exact: true }).first().waitFor();
      await page.reload();
      await expect.poll(() => shownOrder(page)).toEqual(moved);
      await expect.poll(() => page.getByLabel("photos, image 1: alt text").inputValue()).toBe("Oak planter from the side");

      const { items } = await api<{ items: { data: { photos: string[] } }[] }>(
        "GET",
        `/sites/${site.id}/collections/products/items`,
        site.adminKey,
      );
      const urls = await mediaUrls(site);
      // The refused PDF never reached the library.
      expect(urls.size).toBe(3);
      expect(items[0]!.data.photos.map((id) => urls.get(id))).toEqual(moved);

      // The table shows the first image and how many more.
      await page.goto(`${service()}/dashboard/#/${site.id}/items/products`);
      await page.locator(".gallery-cell").getByText("+2").waitFor();
      await checkScreen(page, `65-items-gallery-cell-${width}`);
      await page.close();
    });
  }
});

/** The place of the picker's entry captioned `name` among its checkboxes. */
async function pickerIndexOf(page: Page, name: string): Promise<number> {
  const captions = await page.locator(".gallery-input .media-choice .caption").allTextContents();
  return captions.findIndex((c) => c === name);
}
