/** How the dashboard's header lays out and what Tab reaches in it, read from the page. */
import type { Page } from "playwright-core";

/** How many visual rows the header's two lists take: the places (with Sign out) and the site's sections. */
export function navRows(page: Page): Promise<{ places: number; sections: number }> {
  return page.evaluate(() => {
    // Controls of one row share a vertical centre (a button and a link differ in height, not in centre).
    const rows = (selector: string) => {
      const centres = Array.from(document.querySelectorAll(selector))
        .map((e) => e.getBoundingClientRect())
        .map((r) => (r.top + r.bottom) / 2)
        .sort((a, b) => a - b);
      return centres.filter((c, i) => i === 0 || c - centres[i - 1]! > 8).length;
    };
    return { places: rows("header .places a, header .sign-out"), sections: rows("header .sections a") };
  });
}

/**
 * Tab from the top of the page through the header: the name of every control it reaches, in
 * order, and those not wholly in the viewport when focused (a row that scrolls must bring each in).
 */
export async function tabThroughHeader(page: Page): Promise<{ names: string[]; notShown: string[] }> {
  // From the page's first control, "Skip to content", as after a fresh load.
  await page.locator("a.skip").focus();
  const names: string[] = [];
  const notShown: string[] = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const e = document.activeElement as HTMLElement | null;
      if (!e || !e.closest("header")) return null;
      const r = e.getBoundingClientRect();
      return {
        name: e.textContent!.trim(),
        shown: r.left >= 0 && r.right <= window.innerWidth && r.top >= 0 && r.bottom <= window.innerHeight,
        where: `${Math.round(r.left)}–${Math.round(r.right)} × ${Math.round(r.top)}–${Math.round(r.bottom)}`,
      };
    });
    if (focused === null) {
      if (names.length) break;
      continue;
    }
    names.push(focused.name);
    if (!focused.shown) notShown.push(`${focused.name} at ${focused.where}`);
  }
  return { names, notShown };
}
