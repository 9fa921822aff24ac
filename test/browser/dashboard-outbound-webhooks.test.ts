import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { checkScreen, dashboardBrowser, OPERATOR, signIn } from "./dashboard-harness";
import { api, blogSite, type Site } from "./harness";
import { navRows, tabThroughHeader } from "./nav-checks";
import { startWebhookReceiver, type Received, type WebhookReceiver } from "../node/webhook-receiver";

const { newPage } = dashboardBrowser();
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});

const received = async (box: string): Promise<Received[]> =>
  (await fetch(`${receiver.origin}/__received/${box}`)).json() as Promise<Received[]>;

describe("outbound webhooks on the Webhooks screen, in Chromium", () => {
  it("adds an endpoint, shows its secret once, sends a test event and shows the delivery", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Outbound", plan: "pro" });
    const box = `ui${Date.now()}`;
    const url = `${receiver.origin}/hooks/${box}`;
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
    await page.getByLabel("Receiver URL").fill(url);
    await page.getByLabel("Description").fill("Newsletter tool");
    // Item events are proposed; collections are opt-in.
    expect(await page.getByRole("checkbox", { name: /Published item\.published/ }).isChecked()).toBe(true);
    await page
      .getByRole("group", { name: "Collection events" })
      .getByRole("checkbox", { name: /Changed/ })
      .check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByText("you will not see it again").waitFor();
    const secret = (await page.locator("code", { hasText: /^whsec_/ }).innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    const card = page.getByRole("article", { name: `Endpoint ${url}` });
    await card.getByText("Nothing sent yet").waitFor();
    await checkScreen(page, "60-webhooks-added");

    await card.getByRole("button", { name: `Send test event to ${url}` }).click();
    const row = card.getByRole("row", { name: /webhook\.test/ });
    await row.getByRole("cell", { name: "delivered" }).waitFor({ timeout: 15_000 });
    expect(await row.getByRole("cell", { name: "200", exact: true }).isVisible()).toBe(true);
    expect(await row.getByRole("cell", { name: "ok", exact: true }).isVisible()).toBe(true);
    const [delivery] = await received(box);
    expect((new Webhook(secret).verify(delivery!.body, delivery!.headers) as { type: string }).type).toBe("webhook.test");

    // The secret is gone from the screen once dismissed, and a reload never shows it again.
    await page.getByRole("button", { name: "I have copied the secret" }).click();
    await page.reload();
    await card.getByRole("row", { name: /webhook\.test/ }).waitFor();
    expect(await page.locator("code", { hasText: /^whsec_/ }).count()).toBe(0);

    // A failing receiver: the answer and the retry time are shown, and the retry (5 s later) delivers it.
    await fetch(`${receiver.origin}/__script/${box}`, { method: "PUT", body: JSON.stringify([{ status: 500, body: "database down" }]) });
    await card.getByRole("button", { name: `Send test event to ${url}` }).click();
    const failed = card.getByRole("row", { name: /database down/ });
    await failed.waitFor({ timeout: 15_000 });
    expect(await failed.getByRole("cell", { name: "pending" }).isVisible()).toBe(true);
    expect(await failed.getByRole("cell", { name: "500", exact: true }).isVisible()).toBe(true);
    await checkScreen(page, "61-webhooks-retry");
    await failed.waitFor({ state: "detached", timeout: 20_000 });
    const rows = card.getByRole("row", { name: /webhook\.test/ });
    expect(await rows.count()).toBe(2);
    for (const r of await rows.all()) expect(await r.getByRole("cell", { name: "delivered" }).isVisible()).toBe(true);
    // At 390 px the event's name stays whole (one line box), however narrow the table gets.
    await page.setViewportSize({ width: 390, height: 844 });
    const eventName = rows.first().locator("code", { hasText: "webhook.test" });
    await checkScreen(page, "61b-webhooks-390");
    expect(await eventName.evaluate((el) => el.getClientRects().length)).toBe(1);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect((await received(box)).length).toBe(3);
    // Redeliver sends the first event again, with its id.
    await rows
      .last()
      .getByRole("button", { name: /^Redeliver webhook\.test/ })
      .click();
    for (let i = 0; i < 50 && (await received(box)).length < 4; i++) await page.waitForTimeout(200);
    const all = await received(box);
    expect(all).toHaveLength(4);
    expect(all[3]!.headers["webhook-id"]).toBe(all[0]!.headers["webhook-id"]);
    await page.close();
  });

  it("explains a disabled endpoint and what to do", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Gone", plan: "pro" });
    const box = `gone${Date.now()}`;
    const url = `${receiver.origin}/hooks/${box}`;
    await fetch(`${receiver.origin}/__script/${box}`, { method: "PUT", body: JSON.stringify([{ status: 410 }]) });
    const { endpoint } = await api<{ endpoint: { id: string } }>("POST", `/sites/${site.id}/webhooks`, site.adminKey, {
      url,
      events: ["item.created"],
    });
    await api("POST", `/sites/${site.id}/webhooks/${endpoint.id}/test`, site.adminKey);
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.getByRole("link", { name: "Webhooks" }).click();
    const card = page.getByRole("article", { name: `Endpoint ${url}` });
    for (let i = 0; i < 30 && !(await card.getByText("answered 410 Gone").isVisible()); i++) {
      await page.waitForTimeout(500);
      await page.reload();
    }
    // True to what the service did: the waiting deliveries were cancelled, so resuming sends new events only.
    await card.getByText("Paused by the service: the receiver answered 410 Gone").waitFor();
    expect(await card.textContent()).toContain("Fix the receiver, then resume: new events are sent again, and a cancelled delivery");
    expect(await card.textContent()).not.toContain("waiting deliveries go out at once");
    await card.getByText("Paused", { exact: true }).waitFor();
    await checkScreen(page, "62-webhooks-disabled");
    await card.getByRole("button", { name: `Resume ${url}` }).click();
    await card.getByText("Active", { exact: true }).waitFor();
    await page.close();
  });

  it("pauses and resumes in one pair of words, and says a held delivery waits for the earlier event", async () => {
    const site = await blogSite();
    const box = `held${Date.now()}`;
    const url = `${receiver.origin}/hooks/${box}`;
    await fetch(`${receiver.origin}/__script/${box}`, { method: "PUT", body: JSON.stringify([{ status: 500 }, { status: 500 }]) });
    await api("POST", `/sites/${site.id}/webhooks`, site.adminKey, { url, events: ["item.created", "item.updated"] });
    const { item } = await api<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
      slug: "held",
      data: { title: "Held" },
    });
    await api("PATCH", `/sites/${site.id}/collections/posts/items/${item.id}`, site.adminKey, { data: { title: "Held, edited" } });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.getByRole("link", { name: "Webhooks" }).click();
    const card = page.getByRole("article", { name: `Endpoint ${url}` });
    await card.getByText("Active", { exact: true }).waitFor();
    const held = card.getByRole("row", { name: /item\.updated/ });
    await held.getByText("After the earlier item.created of this item is delivered").waitFor();
    expect(await held.getByRole("cell", { name: "waiting", exact: true }).isVisible()).toBe(true);

    await card.getByRole("button", { name: `Pause ${url}` }).click();
    await card.getByText("Paused", { exact: true }).waitFor();
    await card.getByText("Paused. Deliveries that were waiting are kept and go out when you resume").waitFor();
    const words = (await card.textContent()) ?? "";
    expect(words).not.toMatch(/Enable|Disabled/);
    const first = card.getByRole("row", { name: /item\.created/ });
    expect(await first.getByRole("cell", { name: "When you resume" }).isVisible()).toBe(true);
    await card.getByRole("button", { name: `Resume ${url}` }).click();
    await card.getByText("Active", { exact: true }).waitFor();
    await page.close();
  });

  it("keeps event types whole and breaks a long address between its parts at 390 px, with every section in sight", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Narrow", plan: "seo_engine" });
    const url = `${receiver.origin}/hooks/narrow${Date.now()}/newsletter-tool.receiver/incoming-content-events?token=abcdef0123456789&site=narrow`;
    const events = [
      "item.created",
      "item.updated",
      "item.published",
      "item.unpublished",
      "item.deleted",
      "collection.updated",
      "capture.refreshed",
    ];
    await api("POST", `/sites/${site.id}/webhooks`, site.adminKey, { url, events });
    const page = await newPage(390);
    await signIn(page, site.adminKey);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
    const card = page.getByRole("article", { name: `Endpoint ${url}` });
    await card.getByText("Nothing sent yet").waitFor();

    // Every event type, on the card and beside its checkbox, is one line box: it wraps as a whole.
    const chips = page.locator("main code.name");
    expect(await chips.count()).toBe(events.length + 10);
    const broken = await chips.evaluateAll((els) => els.filter((el) => el.getClientRects().length !== 1).map((el) => el.textContent));
    expect(broken).toEqual([]);
    // The address takes several lines, each part between two break points (after / . ? & =) on one.
    const address = card.getByRole("heading", { level: 2 }).locator("code.url");
    const lines = await address.evaluate((el) => {
      const parts = Array.from(el.querySelectorAll(".part"), (n) => n.firstChild!);
      const range = document.createRange();
      const split = parts.filter((n) => {
        range.selectNodeContents(n);
        return range.getClientRects().length !== 1;
      });
      return {
        lines: new Set(parts.map((n) => (range.selectNodeContents(n), Math.round(range.getBoundingClientRect().top)))).size,
        split: split.map((n) => n.textContent),
      };
    });
    expect(lines.split).toEqual([]);
    expect(lines.lines).toBeGreaterThan(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The site's sections wrap instead of scrolling: each one, the last included, is wholly on screen.
    const sections = await page.locator("header .sections a").evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { name: el.textContent, shown: r.left >= 0 && r.right <= window.innerWidth };
      }),
    );
    expect(sections.at(-1)?.name).toBe("Settings");
    expect(sections.filter((x) => !x.shown)).toEqual([]);
    expect((await navRows(page)).sections).toBeGreaterThan(1);
    expect((await tabThroughHeader(page)).notShown).toEqual([]);
    await checkScreen(page, "64-webhooks-390");
    await page.setViewportSize({ width: 1280, height: 900 });
    expect((await navRows(page)).sections).toBe(1);
    await checkScreen(page, "64b-webhooks-1280");
    await page.close();
  });

  it("downloads a collection as CSV and the whole site as JSON", async () => {
    const site = await blogSite();
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.getByRole("link", { name: "Collections" }).click();
    await page.getByRole("link", { name: "Authors", exact: true }).first().click();
    await page.getByRole("heading", { name: "Authors", level: 1 }).waitFor();
    // The links download with the page's own session (same origin, its cookie).
    const fetchLink = async (name: string) => {
      const href = await page.getByRole("link", { name }).getAttribute("href");
      const res = await page.request.get(new URL(href!, page.url()).href);
      expect(res.status(), name).toBe(200);
      expect(res.headers()["content-disposition"], name).toMatch(/^attachment; filename=/);
      return res.text();
    };
    const text = await fetchLink("Export CSV");
    expect(text).toContain("Name,Slug,Collection ID");
    expect(text).toContain("Ada <Lovelace>,ada");
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { name: "Export" }).waitFor();
    const doc = JSON.parse(await fetchLink("Export site (JSON)")) as { collections: { slug: string }[]; items: unknown[] };
    expect(doc.collections.map((c) => c.slug)).toEqual(["authors", "posts"]);
    expect(doc.items).toHaveLength(2);
    await checkScreen(page, "63-settings-export");
    await page.close();
  });
});
