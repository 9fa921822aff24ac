/** Exports (actors/site/transfer/) as operations of the OpenAPI document. */
import { z } from "zod";
import { operation, type Operation } from "../openapi/registry";
import { P } from "../openapi/params";
import { withSiteId } from "./operations";

const ops: Operation[] = [
  operation({
    id: "exportCollectionCsv",
    method: "get",
    path: "/sites/{siteId}/collections/{slug}/export.csv",
    tag: "Export",
    summary: "A collection as CSV, in the shape Webflow's CMS exports",
    description:
      "Columns `Name, Slug, Collection ID, Locale ID, Item ID, Archived, Draft, Created On, Updated On, Published On`, then one per field (its name; its key where names clash). References and multi-references as slugs (`; `-separated), images and videos as URLs, dates ISO 8601, drafts included. UTF-8 with a BOM, CRLF, streamed (`Content-Disposition: attachment`). A cell holding a comma, a double quote, CR or LF is quoted (RFC 4180). A cell a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a CR) is written behind a `'`, as is one already starting with `'`s before such a character; the CSV import takes exactly that `'` off, so the file imports back as it was.",
    auth: "siteKey",
    params: [P.slug],
    responses: { 200: { description: "The CSV file.", media: ["text/csv"], headers: "json" } },
    errors: ["not_found"],
  }),
  operation({
    id: "exportSite",
    method: "get",
    path: "/sites/{siteId}/export.json",
    tag: "Export",
    summary: "The whole site as one JSON document",
    description:
      "`{format: \"open-content-edge/site-export\", version: 1, exportedAt, site, seo, collections, media, redirects, movedSlugs, locales, items}`: collections with their fields, media metadata, the SEO Engine settings, the owner's redirects and the old slugs of renamed items (docs/redirects.md), the site's locales (the primary first; empty for a site in one language), and every item (drafts included) with its stored data (references as item ids, media as media ids), publish state and translations, one per line. No secrets (keys, tokens, webhook secrets and endpoints, hostname proofs, the audit log). Streamed (`Content-Disposition: attachment`).",
    auth: "siteKey",
    responses: {
      200: {
        description: "The JSON document.",
        headers: "json",
        schema: z.object({
          format: z.literal("open-content-edge/site-export"),
          version: z.literal(1),
          exportedAt: z.string(),
          site: z.object({ name: z.string(), imageResizingHosts: z.array(z.string()) }),
          seo: z.record(z.string(), z.unknown()).nullable(),
          collections: z.array(z.object({ slug: z.string(), name: z.string(), fields: z.array(z.record(z.string(), z.unknown())) })),
          media: z.array(z.record(z.string(), z.unknown())),
          redirects: z.array(z.object({ from: z.string(), to: z.string(), status: z.union([z.literal(301), z.literal(302)]) })),
          movedSlugs: z.array(z.object({ collection: z.string(), slug: z.string(), itemId: z.string() })),
          locales: z.array(z.object({ code: z.string(), fallback: z.string().nullable() })),
          items: z.array(
            z.object({
              collection: z.string(),
              id: z.string(),
              slug: z.string(),
              status: z.enum(["draft", "published"]),
              publishedAt: z.string().nullable(),
              createdAt: z.string(),
              updatedAt: z.string(),
              data: z.record(z.string(), z.unknown()),
              translations: z
                .array(z.object({ locale: z.string(), slug: z.string(), data: z.record(z.string(), z.unknown()), updatedAt: z.string() }))
                .optional()
                .describe("The item's translations, on a site with secondary locales."),
            }),
          ),
        }),
      },
    },
    errors: ["not_found"],
  }),
];

export const transferOperations: Operation[] = ops.map(withSiteId);
