/**
 * The contract test's calls of locales and translations: the site's set, an item's translations,
 * each success and each documented error. They run inside the `describe` of test/contract.test.ts,
 * whose `afterAll` checks that every documented answer was produced.
 */
import { it } from "vitest";
import { addItem, newSite, putCollection } from "../helpers";
import { hit } from "./hit";

/** Registers this area's tests inside the contract test's `describe`. */
export function localeCalls(): void {
  it("describes locales and translations", async () => {
    const site = await newSite("starter");
    const auth = site.adminKey;
    await putCollection(site, "posts", { name: "Posts", fields: [{ key: "title", type: "text", indexed: true, localized: true }] });
    const item = await addItem(site, "posts", { slug: "hello", data: { title: "Hello" }, publish: true });
    const other = await addItem(site, "posts", { slug: "second", data: { title: "Second" }, publish: true });
    const locales = `/sites/${site.id}/locales`;
    await hit("getLocales", "GET", locales, { auth });
    await hit("putLocales", "PUT", locales, { auth, body: { primary: "en", secondary: [{ code: "fr" }] } });
    await hit("putLocales", "PUT", locales, { auth, body: { primary: "en", secondary: [{ code: "fr" }, { code: "de" }] } });
    await hit("putLocales", "PUT", locales, { auth, body: { primary: "en", secondary: [{ code: "fr", fallback: "xx-" }] } });

    const translations = (id: string) => `/sites/${site.id}/collections/posts/items/${id}/locales`;
    await hit("putTranslation", "PUT", `${translations(item.id)}/fr`, { auth, body: { slug: "bonjour", data: { title: "Bonjour" } } });
    await hit("putTranslation", "PUT", `${translations(other.id)}/fr`, { auth, body: { slug: "bonjour", data: {} } });
    await hit("putTranslation", "PUT", `${translations(other.id)}/en`, { auth, body: { slug: "second", data: {} } });
    await hit("putTranslation", "PUT", `${translations(other.id)}/de`, { auth, body: { slug: "zweite", data: {} } });
    await hit("listTranslations", "GET", translations(item.id), { auth });
    await hit("listTranslations", "GET", translations("it_none"), { auth });
    // Removing a locale that holds a translation asks first.
    await hit("putLocales", "PUT", locales, { auth, body: { primary: "en", secondary: [] } });

    await hit("deleteTranslation", "DELETE", `${translations(item.id)}/en`, { auth });
    await hit("deleteTranslation", "DELETE", `${translations(item.id)}/fr`, { auth });
    await hit("deleteTranslation", "DELETE", `${translations(item.id)}/fr`, { auth });
  });
}
