/**
 * Every screen loads what its address names whenever the address changes,
 * and a form never writes to an item other than the one its address names.
 */
import { describe, expect, it } from "vitest";
import { api, service, type Site } from "./harness";
import { dashboardBrowser, expectConsoleError, OPERATOR, signIn } from "./dashboard-harness";

const { newPage } = dashboardBrowser();

interface ListedItem {
  id: string;
  slug: string;
  data: Record<string, unknown>;
}

describe("the dashboard's screens follow their address", () => {
  it("Back from a saved item skips its …/new form; …/new again shows an empty form, and saving it creates a second item", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Recipes", plan: "pro" });
    await api("PUT", `/sites/${site.id}/collections/recipes`, site.adminKey, {
      name: "Recipes",
      fields: [
        { key: "title", type: "text", required: true },
        { key: "notes", type: "text" },
      ],
    });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/items/recipes/new`);
    await page.getByLabel("title (required)").fill("Tomato soup");
    await page.getByLabel("notes").fill("first");
    await page.getByRole("button", { name: "Save as draft" }).click();
    await page.getByRole("button", { name: "Delete" }).waitFor();
    expect(page.url()).not.toMatch(/\/new$/);

    // The saved item's address took the form's place: Back leaves the item, never to the used form.
    const saved = page.url();
    await page.goBack();
    await expect.poll(() => page.url()).not.toBe(saved);
    expect(page.url()).not.toMatch(/\/new$/);
    // The "new" address again (the address bar): an empty form for a new item, never the saved one.
    await page.goto(`${service()}/dashboard/#/${site.id}/items/recipes/new`);
    await page.getByRole("heading", { name: "New item in Recipes" }).waitFor();
    expect(await page.getByRole("button", { name: "Delete" }).count()).toBe(0);
    expect(await page.getByLabel("title (required)").inputValue()).toBe("");
    await page.getByLabel("title (required)").fill("Bread");
    await page.getByLabel("notes").fill("second");
    await page.getByRole("button", { name: "Save as draft" }).click();
    await page.getByRole("button", { name: "Delete" }).waitFor();

    const { items } = await api<{ items: ListedItem[] }>("GET", `/sites/${site.id}/collections/recipes/items`, site.adminKey);
    expect(items.map((i) => i.data["title"]).sort()).toEqual(["Bread", "Tomato soup"]);
    expect(items.find((i) => i.data["title"] === "Tomato soup")!.data["notes"]).toBe("first");

    // The address bar straight from one item to another shows the other.
    const soup = items.find((i) => i.data["title"] === "Tomato soup")!;
    const bread = items.find((i) => i.data["title"] === "Bread")!;
    await page.goto(`${service()}/dashboard/#/${site.id}/items/recipes/${soup.id}`);
    await expect.poll(() => page.getByLabel("title (required)").inputValue()).toBe("Tomato soup");
    await page.goto(`${service()}/dashboard/#/${site.id}/items/recipes/${bread.id}`);
    await expect.poll(() => page.getByLabel("title (required)").inputValue()).toBe("Bread");
    await page.getByLabel("notes").fill("second, edited");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Saved.").waitFor();
    const after = await api<{ items: ListedItem[] }>("GET", `/sites/${site.id}/collections/recipes/items`, site.adminKey);
    expect(after.items.find((i) => i.id === soup.id)!.data["notes"]).toBe("first");
    expect(after.items.find((i) => i.id === bread.id)!.data["notes"]).toBe("second, edited");
    await page.close();
  });

  it("from one collection's fields to …/collection/new shows an empty new collection", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Recipes 2", plan: "pro" });
    await api("PUT", `/sites/${site.id}/collections/recipes`, site.adminKey, {
      name: "Recipes",
      fields: [
        { key: "title", type: "text", required: true },
        { key: "servings", type: "number" },
      ],
    });
    const page = await newPage();
    await signIn(page, site.adminKey);
    await page.goto(`${service()}/dashboard/#/${site.id}/collection/recipes`);
    await expect.poll(() => page.getByLabel("Collection name").inputValue()).toBe("Recipes");
    await page.goto(`${service()}/dashboard/#/${site.id}/collection/new`);
    await expect.poll(() => page.getByLabel("Collection name").inputValue()).toBe("");
    expect(await page.getByRole("button", { name: "Create collection" }).count()).toBe(1);
    expect(await page.locator(".field-row").count()).toBe(1);
    await page.goBack();
    await expect.poll(() => page.getByLabel("Collection name").inputValue()).toBe("Recipes");
    expect(await page.locator(".field-row").count()).toBe(2);
    await page.close();
  });

  it("a new collection named like an existing one is refused, and the existing one's items keep their values", async () => {
    const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Recipes 3", plan: "pro" });
    const recipes = {
      name: "Recipes",
      fields: [
        { key: "title", type: "text", required: true },
        { key: "notes", type: "text" },
      ],
    };
    await api("PUT", `/sites/${site.id}/collections/recipes`, site.adminKey, recipes);
    await api("POST", `/sites/${site.id}/collections/recipes/items`, site.adminKey, {
      slug: "tomato-soup",
      data: { title: "Tomato soup", notes: "roast first" },
    });
    const page = await newPage();
    await signIn(page, site.adminKey);

    // The list knows "recipes": refused on the page, with the way to the existing one.
    await page.goto(`${service()}/dashboard/#/${site.id}/collection/new`);
    await page.getByLabel("Collection name").fill("Recipes");
    await page.getByRole("button", { name: "Create collection" }).click();
    const slugError = page.locator(".field.has-error", { has: page.getByLabel("Collection slug") });
    await expect.poll(() => slugError.locator(".error").textContent()).toBe("A collection with this slug exists: open it");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-invalid"))).toBe("true");

    // Renamed to "Books", created elsewhere after this screen loaded (unknown to the list): the service refuses (409).
    expectConsoleError(`status of 409 (Conflict) (${service()}/sites/${site.id}/collections/books)`);
    await api("PUT", `/sites/${site.id}/collections/books`, site.adminKey, { ...recipes, name: "Books" });
    await api("POST", `/sites/${site.id}/collections/books/items`, site.adminKey, {
      slug: "dune",
      data: { title: "Dune", notes: "sand" },
    });
    await page.getByLabel("Collection name").fill("Books");
    await expect.poll(() => page.getByLabel("Collection slug").inputValue()).toBe("books");
    expect(await slugError.count()).toBe(0);
    await page.getByRole("button", { name: "Create collection" }).click();
    await expect.poll(() => slugError.locator(".error").textContent()).toBe("A collection with this slug exists: open it");

    for (const [slug, notes] of [
      ["recipes", "roast first"],
      ["books", "sand"],
    ] as const) {
      const { collection } = await api<{ collection: { fields: unknown[] } }>(
        "GET",
        `/sites/${site.id}/collections/${slug}`,
        site.adminKey,
      );
      expect(collection.fields).toHaveLength(2);
      const { items } = await api<{ items: ListedItem[] }>("GET", `/sites/${site.id}/collections/${slug}/items`, site.adminKey);
      expect(items.map((i) => i.data["notes"])).toEqual([notes]);
    }

    // "open it" opens the existing collection's fields (after the usual "leave unsaved changes?").
    page.once("dialog", (d) => void d.accept());
    await slugError.getByRole("link", { name: "open it" }).click();
    await expect.poll(() => page.url()).toMatch(/\/collection\/books$/);
    await page.getByRole("heading", { name: "Fields of Books" }).waitFor();
    await page.close();
  });
});
