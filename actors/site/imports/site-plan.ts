/**
 * A site export (GET /sites/{id}/export.json) imported into a new, empty site: collections are
 * created when the import starts, media rows keep their ids, items keep their ids, slugs, publish
 * state and times, so every public list and item answers as the exported site did. Each staged
 * row is one item line of the export; references (item ids) to items later in the file wait for
 * the link pass like a CSV's references to later rows.
 */
import { ApiError } from "../../../src/contract/errors";
import { collectionInputSchema, type Field } from "../../../src/contract/fields";
import type { ImportProblem } from "../../../src/contract/imports";
import { isSlug } from "../../../src/contract/slug";
import { ID_PREFIX } from "../../../src/contract/ids";
import { SITE_EXPORT_FORMAT } from "../transfer/export-site";
import { type RedirectInput, redirectInputSchema } from "../../../src/contract/redirects";
import type { MediaRow } from "../content/media";
import type { Collection } from "../storage/rows";
import type { PlanContext, RefCell, RowPlan } from "./plan";
import { type SiteLocalesInput, siteLocalesInputSchema, translationInputSchema } from "../../../src/contract/locales";

const MEDIA_ID = new RegExp(`^${ID_PREFIX.media}[A-Za-z0-9]{1,64}$`);
const ITEM_ID = new RegExp(`^${ID_PREFIX.item}[A-Za-z0-9]{1,64}$`);

export interface SiteHead {
  collections: { slug: string; name: string; fields: Field[] }[];
  media: MediaRow[];
  redirects: RedirectInput[];
  movedSlugs: { collection: string; slug: string; itemId: string }[];
  /** The site's locales (the primary first), null: an export of a site in one language. */
  locales: SiteLocalesInput | null;
}

/** The export's head, checked: its format, collections (by the API's own schema) and media. */
export function readSiteHead(raw: unknown): SiteHead {
  const h = raw as {
    format?: unknown;
    version?: unknown;
    collections?: unknown;
    media?: unknown;
    redirects?: unknown;
    movedSlugs?: unknown;
    locales?: unknown;
  } | null;
  if (!h || typeof h !== "object" || h.format !== SITE_EXPORT_FORMAT || h.version !== 1)
    throw new ApiError("bad_request", `Not a site export: the file must start with {"format": "${SITE_EXPORT_FORMAT}", "version": 1, …}.`);
  if (!Array.isArray(h.collections) || !Array.isArray(h.media))
    throw new ApiError("bad_request", "The site export has no collections or media list.");
  const collections = h.collections.map((c: unknown, i) => {
    const x = c as { slug?: unknown; name?: unknown; fields?: unknown };
    if (typeof x.slug !== "string" || !isSlug(x.slug)) throw new ApiError("bad_request", `collections.${i}.slug is not a slug.`);
    const parsed = collectionInputSchema.safeParse({ name: x.name, fields: x.fields });
    if (!parsed.success)
      throw new ApiError(
        "bad_request",
        `collections.${i} (${x.slug}): ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`,
      );
    return { slug: x.slug, name: parsed.data.name ?? x.slug, fields: parsed.data.fields };
  });
  const media = h.media.map((m: unknown, i): MediaRow => {
    const x = m as Record<string, unknown>;
    if (typeof x.id !== "string" || !MEDIA_ID.test(x.id) || typeof x.url !== "string" || !/^https?:\/\//.test(x.url))
      throw new ApiError("bad_request", `media.${i} needs an id (${ID_PREFIX.media}…) and an absolute http(s) url.`);
    const dim = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v > 0 && v <= 100_000 ? v : null);
    return { id: x.id, url: x.url, alt: typeof x.alt === "string" ? x.alt.slice(0, 1000) : "", width: dim(x.width), height: dim(x.height) };
  });
  // Exports made before redirects were exported have neither list.
  const redirects = (Array.isArray(h.redirects) ? h.redirects : []).map((r: unknown, i) => {
    const parsed = redirectInputSchema.safeParse(r);
    if (!parsed.success)
      throw new ApiError("bad_request", `redirects.${i}: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`);
    return parsed.data;
  });
  const slugs = new Set(collections.map((c) => c.slug));
  const movedSlugs = (Array.isArray(h.movedSlugs) ? h.movedSlugs : []).map((m: unknown, i) => {
    const x = m as Record<string, unknown>;
    if (
      typeof x.collection !== "string" ||
      !slugs.has(x.collection) ||
      typeof x.slug !== "string" ||
      !isSlug(x.slug) ||
      typeof x.itemId !== "string" ||
      !ITEM_ID.test(x.itemId)
    )
      throw new ApiError("bad_request", `movedSlugs.${i} needs a collection of the export, a slug and an item id (${ID_PREFIX.item}…).`);
    return { collection: x.collection, slug: x.slug, itemId: x.itemId };
  });
  return { collections, media, redirects, movedSlugs, locales: readHeadLocales(h.locales) };
}

/** The head's locales as the locales PUT takes them, checked by its schema (exports made before locales have none). */
function readHeadLocales(raw: unknown): SiteLocalesInput | null {
  if (!Array.isArray(raw) || raw.length < 2) return null;
  const [primary, ...rest] = raw as { code?: unknown; fallback?: unknown }[];
  const parsed = siteLocalesInputSchema.safeParse({
    primary: primary?.code,
    secondary: rest.map((l) => ({ code: l?.code, ...(typeof l?.fallback === "string" ? { fallback: l.fallback } : {}) })),
  });
  if (!parsed.success)
    throw new ApiError("bad_request", `locales: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** The head's collections as the planner sees them (ids are made when the import starts). */
export function headCollections(head: SiteHead): Collection[] {
  return head.collections.map((c) => ({ id: `new:${c.slug}`, slug: c.slug, name: c.name, fields: c.fields, createdAt: "", updatedAt: "" }));
}

export interface SiteItemPlan extends RowPlan {
  id: string | null;
  collection: string;
  createdAt: string | null;
  updatedAt: string | null;
  /** The item's translations (written with it, once it is whole). */
  translations: { locale: string; slug: string; data: Record<string, unknown>; updatedAt: string | undefined }[];
}

const isIso = (v: unknown): v is string => typeof v === "string" && Number.isFinite(Date.parse(v));

/** One item line as a plan: values as stored (media ids), references as the item ids they hold. */
export function planSiteItem(contexts: ReadonlyMap<string, PlanContext>, line: string): SiteItemPlan {
  const problems: ImportProblem[] = [];
  const out: SiteItemPlan = {
    id: null,
    collection: "",
    slug: null,
    archived: false,
    status: "draft",
    publishedAt: null,
    createdAt: null,
    updatedAt: null,
    values: {},
    refs: [],
    problems,
    locale: null,
    itemRef: null,
    translations: [],
  };
  let item: Record<string, unknown>;
  try {
    item = JSON.parse(line.replace(/,\s*$/, "")) as Record<string, unknown>;
  } catch {
    problems.push({ column: "item", value: line.slice(0, 200), reason: "is not a JSON object" });
    return out;
  }
  const p = typeof item.collection === "string" ? contexts.get(item.collection) : undefined;
  if (!p) {
    problems.push({ column: "collection", value: String(item.collection ?? ""), reason: "is not a collection of the export" });
    return out;
  }
  out.collection = p.collection.slug;
  if (typeof item.id === "string" && ITEM_ID.test(item.id)) out.id = item.id;
  else problems.push({ column: "id", value: String(item.id ?? ""), reason: `is not an item id (${ID_PREFIX.item}…)` });
  if (typeof item.slug === "string" && isSlug(item.slug)) out.slug = item.slug;
  else problems.push({ column: "slug", value: String(item.slug ?? ""), reason: "is not a slug" });
  out.status = item.status === "published" ? "published" : "draft";
  out.publishedAt = isIso(item.publishedAt) ? new Date(item.publishedAt).toISOString() : null;
  out.createdAt = isIso(item.createdAt) ? new Date(item.createdAt).toISOString() : null;
  out.updatedAt = isIso(item.updatedAt) ? new Date(item.updatedAt).toISOString() : null;
  const data = item.data && typeof item.data === "object" && !Array.isArray(item.data) ? (item.data as Record<string, unknown>) : {};
  for (const [key, v] of Object.entries(data)) {
    const f = p.fields.find((x) => x.key === key);
    if (f && (f.type === "reference" || f.type === "references")) {
      const targets = (Array.isArray(v) ? v : [v]).filter((t): t is string => typeof t === "string");
      out.refs.push({ key, column: key, collection: f.collection!, many: f.type === "references", targets } satisfies RefCell);
    } else out.values[key] = v;
  }
  const translations = Array.isArray(item.translations) ? (item.translations as (Record<string, unknown> | null)[]) : [];
  translations.forEach((t, i) => {
    const parsed = translationInputSchema.safeParse({ slug: t?.slug, data: t?.data });
    if (typeof t?.locale !== "string" || !parsed.success)
      return problems.push({
        column: `translations.${i}`,
        value: JSON.stringify(t).slice(0, 200),
        reason: "needs a locale, a slug and data",
      });
    out.translations.push({
      locale: t.locale,
      slug: parsed.data.slug,
      data: parsed.data.data,
      updatedAt: isIso(t.updatedAt) ? new Date(t.updatedAt).toISOString() : undefined,
    });
  });
  return out;
}
