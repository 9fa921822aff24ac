/**
 * Locales and translations as operations of the OpenAPI document. Served by the site object
 * (actors/site/locales/routes.ts); docs/locales.md says how reads in a locale work.
 */
import { z } from "zod";
import { SiteLocales, siteLocalesInputSchema, Translation, translationInputSchema } from "../contract/locales";
import { PLAN_LIMITS } from "../contract/plans";
import { P } from "../openapi/params";
import { operation, type Operation, type Param } from "../openapi/registry";
import { withSiteId } from "./operations";

const json = (description: string, schema: z.ZodType) => ({ description, schema, headers: "json" }) as const;
const TAG = "Locales";
const T = "/sites/{siteId}/collections/{slug}/items/{id}/locales";
const locale: Param = {
  name: "locale",
  in: "path",
  description: "A secondary locale of the site (`fr`, `es-MX`; any case).",
  schema: z.string(),
  required: true,
};
const plans = Object.entries(PLAN_LIMITS)
  .map(([plan, l]) => `${plan} ${l.locales}`)
  .join(", ");

const ops: Operation[] = [
  operation({
    id: "getLocales",
    method: "get",
    path: "/sites/{siteId}/locales",
    tag: TAG,
    summary: "The site's locales",
    description: "Empty until locales are set: every read is then in the items' own values, as without locales.",
    auth: "siteKey",
    responses: { 200: json("The primary first, then the secondaries.", SiteLocales) },
    errors: ["not_found"],
  }),
  operation({
    id: "putLocales",
    method: "put",
    path: "/sites/{siteId}/locales",
    tag: TAG,
    summary: "Set the site's locales",
    description: `The whole set: the primary (the items' own values) and the secondaries, each with its fallback (the primary unless named). Locales a site may have, the primary included, by plan: ${plans} (403 \`plan_required\`). Removing a secondary that holds translations is a 409 naming each with its count (\`details.removes\`) until its code is sent in \`remove\`; its translations are then deleted on the alarm. A secondary cannot become the primary (409).`,
    auth: "siteKey",
    body: siteLocalesInputSchema,
    responses: { 200: json("The locales as stored.", SiteLocales) },
    errors: ["bad_request", "not_found", "conflict", "plan_required"],
  }),
  operation({
    id: "listTranslations",
    method: "get",
    path: T,
    tag: TAG,
    summary: "An item's translations",
    auth: "siteKey",
    params: [P.slug, P.itemId],
    responses: {
      200: json("One per locale it is translated into, in the site's order.", z.strictObject({ translations: z.array(Translation) })),
    },
    errors: ["not_found"],
  }),
  operation({
    id: "putTranslation",
    method: "put",
    path: `${T}/{locale}`,
    tag: TAG,
    summary: "Translate an item into a locale",
    description:
      "The translation whole: its slug (unique in the collection and locale, 409 otherwise) and the values of the collection's localized fields; a field left out takes its value from the locale's fallback chain. A published item's translation is public at once: the item is listed in that locale from then on.",
    auth: "siteKey",
    params: [P.slug, P.itemId, locale, P.ifMatch],
    body: translationInputSchema,
    responses: { 200: json("The translation as stored.", z.strictObject({ translation: Translation })) },
    errors: ["bad_request", "not_found", "conflict", "precondition_failed"],
  }),
  operation({
    id: "deleteTranslation",
    method: "delete",
    path: `${T}/{locale}`,
    tag: TAG,
    summary: "Delete an item's translation",
    description: "The item is no longer listed in that locale and has no page there.",
    auth: "siteKey",
    params: [P.slug, P.itemId, locale, P.ifMatch],
    responses: { 200: json("Deleted.", z.strictObject({ deleted: z.literal(true), locale: z.string() })) },
    errors: ["bad_request", "not_found", "precondition_failed"],
  }),
];

export const localeOperations: Operation[] = ops.map(withSiteId);
