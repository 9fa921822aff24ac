/**
 * The dashboard API of locales: the site's set (`/sites/:siteId/locales`) and an item's
 * translations (`…/items/:id/locales/:locale`). Every change writes its audit row in its own
 * transaction and retires the cached answers that show it.
 */
import { IttyRouter, type IRequest } from "itty-router";
import { ittyRouter, type Router } from "../../shared/router";
import { json, readJsonObject } from "../../../src/http/json";
import { parseBody } from "../../../src/http/validation";
import { ApiError } from "../../../src/contract/errors";
import { siteLocalesInputSchema, translationInputSchema } from "../../../src/contract/locales";
import type { SiteContext } from "../context";
import { ownItem, type SiteAccess } from "../access/site-access";
import { recordAudit } from "../access/audit";
import type { Collection } from "../storage/rows";
import type { SiteLocaleSet } from "../storage/locale-set";
import {
  countAllItems,
  LOCALES_PURGE_JOB,
  TRANSLATIONS_SEARCH_JOB,
  translationCounts,
  translationsOf,
  type TranslationRow,
} from "../storage/locales-table";
import { scheduleJob } from "../../shared/jobs";
import { itemToChange, lookupsFor, readItem } from "../content/items";
import { putTranslation, removeTranslation, replaceLocales, secondaryLocale } from "./translations";

export function localeRoutes(s: SiteContext): Router<[SiteAccess]> {
  const router = IttyRouter<IRequest, [SiteAccess]>({ base: "/sites/:siteId" });
  const audit = (a: SiteAccess, target: string, details?: unknown) => recordAudit(s.sql, a, target, details);
  const collection = (slug: string): Collection => {
    const c = s.collections().find((x) => x.slug === slug);
    if (!c) throw new ApiError("not_found", `No collection "${slug}".`);
    return c;
  };
  const present = (t: TranslationRow) => ({
    locale: s.locales().byId.get(t.locale)?.code ?? "",
    slug: t.slug,
    data: JSON.parse(t.data) as Record<string, unknown>,
    updatedAt: t.updated_at,
  });

  router
    .get("/locales", () => json(localesAnswer(s.sql, s.locales())))
    .put("/locales", async (req, a) => {
      const input = parseBody(siteLocalesInputSchema, await readJsonObject(req), "locales");
      const removed = s.storage.transactionSync(() => {
        const r = replaceLocales(s.sql, s.locales(), input, s.site()!.plan);
        audit(a, "site locales", { primary: input.primary, secondary: input.secondary.map((l) => l.code), removed: r });
        return r;
      });
      s.localesChanged();
      if (removed.length) scheduleJob(s.storage, LOCALES_PURGE_JOB, "all", Date.now());
      scheduleJob(s.storage, TRANSLATIONS_SEARCH_JOB, "all", Date.now());
      s.contentChanged();
      return json(localesAnswer(s.sql, s.locales()));
    })
    .get("/collections/:slug/items/:id/locales", (req) => {
      const row = readItem(s.sql, collection(req.params.slug ?? ""), req.params.id ?? "");
      return json({ translations: translationsOf(s.sql, row.seq).map(present) });
    })
    .put("/collections/:slug/items/:id/locales/:locale", async (req, a) => {
      const body = await readJsonObject(req);
      const c = collection(req.params.slug ?? "");
      const row = itemToChange(s.sql, c, req.params.id ?? "", req);
      ownItem(a, row);
      const locale = secondaryLocale(s.locales(), decodeURIComponent(req.params.locale ?? ""));
      const input = parseBody(translationInputSchema, body, "translation");
      const translation = s.storage.transactionSync(() => {
        putTranslation(s.sql, s.locales(), c, row, locale, input, lookupsFor(s.sql, s.collections()));
        audit(a, `${c.slug}/${row.slug}`, { id: row.id, locale: locale.code, translation: "saved" });
        return translationsOf(s.sql, row.seq).find((t) => t.locale === locale.id)!;
      });
      if (row.status === "published") s.contentChanged([row.id]);
      return json({ translation: present(translation) });
    })
    .delete("/collections/:slug/items/:id/locales/:locale", (req, a) => {
      const c = collection(req.params.slug ?? "");
      const row = itemToChange(s.sql, c, req.params.id ?? "", req);
      ownItem(a, row);
      const locale = secondaryLocale(s.locales(), decodeURIComponent(req.params.locale ?? ""));
      const gone = s.storage.transactionSync(() => {
        const g = removeTranslation(s.sql, s.locales(), c, row, locale);
        if (g) audit(a, `${c.slug}/${row.slug}`, { id: row.id, locale: locale.code, translation: "deleted" });
        return g;
      });
      if (!gone) throw new ApiError("not_found", `The item has no ${locale.code} translation.`, { locale: locale.code });
      if (row.status === "published") s.contentChanged([row.id]);
      return json({ deleted: true, locale: locale.code });
    });
  return ittyRouter(router);
}

/** The site's locales with their chains and how many items each is translated into. */
function localesAnswer(sql: SqlStorage, set: SiteLocaleSet) {
  const counts = translationCounts(sql);
  const items = set.all.length ? countAllItems(sql) : 0;
  return {
    locales: set.all.map((l) => ({
      code: l.code,
      primary: l.primary,
      fallback: l.fallback,
      chain: l.chainCodes,
      translations: l.primary ? items : (counts.get(l.id) ?? 0),
    })),
  };
}
