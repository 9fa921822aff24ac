/**
 * The whole site as one JSON document: collections with their fields, media metadata, the SEO
 * Engine's settings and redirects, the site's locales, then every item with its data, publish state and
 * translations, one item per line. No
 * secret is in it (admin key hash, public token, sessions, webhook secrets and endpoints, custom
 * hostname proofs, the audit log). Streamed: items a keyset page per pull.
 */
import type { SiteContext } from "../context";
import type { ItemRow } from "../storage/rows";
import { itemPages } from "./export-csv";
import { allRedirects } from "../storage/redirects-table";
import { movedSlugRows } from "../storage/slug-redirects-table";
import { type TranslationRow, translationsOfSeqs } from "../storage/locales-table";

export const SITE_EXPORT_FORMAT = "open-content-edge/site-export";

export function siteJson(s: SiteContext, now = Date.now()): ReadableStream<Uint8Array> {
  const site = s.site()!;
  const collections = s.collections();
  const capture = s.capture();
  const slugOf = new Map(collections.map((c) => [c.id, c.slug]));
  const head = {
    format: SITE_EXPORT_FORMAT,
    version: 1,
    exportedAt: new Date(now).toISOString(),
    site: { name: site.name, imageResizingHosts: site.imageResizingHosts },
    // The capture's settings without its signing secrets (never exported).
    seo: capture
      ? {
          pageUrl: capture.pageUrl,
          publicUrl: capture.publicUrl,
          collection: slugOf.get(capture.collectionId) ?? null,
          showsList: capture.showsList,
          seo: capture.extra.seo ?? null,
        }
      : null,
    collections: collections.map((c) => ({ slug: c.slug, name: c.name, fields: c.fields })),
    media: s.sql
      .exec<{ id: string; url: string; alt: string; width: number | null; height: number | null; created_at: string }>(
        "SELECT id, url, alt, width, height, created_at FROM media ORDER BY created_at, id",
      )
      .toArray()
      .map((m) => ({ id: m.id, url: m.url, alt: m.alt, width: m.width, height: m.height, createdAt: m.created_at })),
    // Old addresses keep leading where they did: the owner's rules, and renamed items' old slugs (items keep their ids).
    redirects: allRedirects(s.sql).map((r) => ({ from: r.from_path, to: r.to_url, status: r.status })),
    movedSlugs: movedSlugRows(s.sql).map((r) => ({ collection: slugOf.get(r.collection_id) ?? "", slug: r.slug, itemId: r.item_id })),
    // The primary first; none: a site in one language.
    locales: s.locales().all.map((l) => ({ code: l.code, fallback: l.fallback })),
  };
  const locales = s.locales();
  const encoder = new TextEncoder();
  const queue = collections.map((c) => itemPages(s.sql, c.id));
  let first = true;
  let started = false;
  const line = (r: ItemRow, translations: ReadonlyMap<number, TranslationRow[]>) =>
    JSON.stringify({
      collection: slugOf.get(r.collection_id),
      id: r.id,
      slug: r.slug,
      status: r.status,
      publishedAt: r.published_at,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      data: JSON.parse(r.data) as unknown,
      ...(translations.has(r.seq)
        ? {
            translations: translations.get(r.seq)!.map((t) => ({
              locale: locales.byId.get(t.locale)?.code ?? "",
              slug: t.slug,
              data: JSON.parse(t.data) as unknown,
              updatedAt: t.updated_at,
            })),
          }
        : {}),
    });
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!started) {
          started = true;
          const text = JSON.stringify(head, null, 1);
          controller.enqueue(encoder.encode(`${text.slice(0, -2)},\n "items": [\n`));
          return;
        }
        while (queue.length > 0) {
          const next = queue[0]!.next();
          if (next.done) {
            queue.shift();
            continue;
          }
          const translations =
            locales.all.length > 1
              ? translationsOfSeqs(
                  s.sql,
                  next.value.map((r) => r.seq),
                )
              : new Map<number, TranslationRow[]>();
          const chunk = next.value.map((r) => line(r, translations)).join(",\n");
          controller.enqueue(encoder.encode(`${first ? "" : ",\n"}${chunk}`));
          first = false;
          return;
        }
        controller.enqueue(encoder.encode("\n ]\n}\n"));
        controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}
