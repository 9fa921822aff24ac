/**
 * The head of an item page, one small function per concern. Every value is
 * escaped here for where it goes (text, attribute, JSON in a script), and
 * empty values produce no tag at all.
 */
import { displayText, isItem, isMedia } from "../../../src/shared/binding/values";
import { escapeAttr, escapeHtml, jsonForScript } from "../../../src/shared/escape";
import type { PublicItem } from "../../../src/contract/responses";
import type { SeoFields, SeoSettings } from "./fields";
import { excerpt, plainText } from "../content/plain-text";

export interface SeoImage {
  url: string;
  alt: string;
  width?: number;
  height?: number;
}

/** Everything the tags say about one item, resolved from its fields once. */
export interface ItemSeo {
  title: string;
  description: string;
  canonical: string;
  siteName: string;
  image: SeoImage | null;
  author: string;
  publisher: string;
  publishedAt: string;
  modifiedAt: string;
  breadcrumbs: { name: string; url: string }[];
}

export interface PageContext {
  canonical: string;
  home: string;
  siteName: string;
  /** The list page, when there is one (a capture that shows the list). */
  list: { name: string; url: string } | null;
}

export const DESCRIPTION_LENGTH = 155;

export function resolveItemSeo(item: PublicItem, fields: SeoFields, settings: SeoSettings, page: PageContext): ItemSeo {
  const value = (key: string | undefined) => (key ? item.data[key] : undefined);
  const title = displayText(value(fields.title?.key), null) || item.slug;
  return {
    title,
    description: describe(item, fields),
    canonical: page.canonical,
    siteName: settings.siteName ?? page.siteName,
    image: imageOf(value(fields.image?.key)),
    author: authorOf(value(fields.author?.key)),
    publisher: settings.publisher ?? "",
    // A draft opened through a share link has never been published: its time is null, and no
    // tag may say "null".
    publishedAt: item.publishedAt || "",
    modifiedAt: item.updatedAt,
    breadcrumbs: [
      { name: page.siteName || new URL(page.home).host, url: page.home },
      ...(page.list ? [page.list] : []),
      { name: title, url: page.canonical },
    ],
  };
}

/** The description field (plain text of it), else the rich text body, cut near 155 characters at a word boundary. */
function describe(item: PublicItem, fields: SeoFields): string {
  for (const f of [fields.description, fields.body]) {
    const v = f ? item.data[f.key] : undefined;
    if (typeof v === "string" && v.trim() !== "") return excerpt(f?.type === "richText" ? plainText(v) : v, DESCRIPTION_LENGTH);
  }
  return "";
}

function imageOf(v: unknown): SeoImage | null {
  // A gallery's social image is its first.
  if (Array.isArray(v)) return imageOf(v[0]);
  if (!isMedia(v)) return null;
  const m = v as { url: string; alt?: string; width?: number; height?: number };
  return { url: m.url, alt: m.alt ?? "", width: m.width, height: m.height };
}

function authorOf(v: unknown): string {
  if (Array.isArray(v)) return v.map(authorOf).filter(Boolean).join(", ");
  if (isItem(v)) return displayText(v.data.name ?? v.data.title ?? v.slug, null);
  return typeof v === "string" ? v : "";
}

const meta = (attr: "name" | "property", key: string, content: string | number | undefined) =>
  content === undefined || content === "" ? "" : `<meta ${attr}="${key}" content="${escapeAttr(String(content))}">`;

export function titleTag(s: ItemSeo): string {
  return `<title>${escapeHtml(s.title)}</title>`;
}

export function descriptionTag(s: ItemSeo): string {
  return meta("name", "description", s.description);
}

export function canonicalTag(s: ItemSeo): string {
  return `<link rel="canonical" href="${escapeAttr(s.canonical)}">`;
}

export function openGraphTags(s: ItemSeo): string[] {
  return [
    meta("property", "og:type", "article"),
    meta("property", "og:title", s.title),
    meta("property", "og:description", s.description),
    meta("property", "og:url", s.canonical),
    meta("property", "og:site_name", s.siteName),
    meta("property", "og:image", s.image?.url),
    meta("property", "og:image:alt", s.image ? s.image.alt || s.title : undefined),
    meta("property", "og:image:width", s.image?.width),
    meta("property", "og:image:height", s.image?.height),
    meta("property", "article:published_time", s.publishedAt),
    meta("property", "article:modified_time", s.modifiedAt),
  ];
}

export function twitterTags(s: ItemSeo): string[] {
  return [
    meta("name", "twitter:card", s.image ? "summary_large_image" : "summary"),
    meta("name", "twitter:title", s.title),
    meta("name", "twitter:description", s.description),
    meta("name", "twitter:image", s.image?.url),
    meta("name", "twitter:image:alt", s.image ? s.image.alt || s.title : undefined),
  ];
}

export function articleJsonLd(s: ItemSeo): Record<string, unknown> {
  return dropEmpty({
    "@context": "https://schema.org",
    "@type": "Article",
    headline: s.title,
    description: s.description,
    image: s.image
      ? { "@type": "ImageObject", url: s.image.url, width: s.image.width, height: s.image.height, caption: s.image.alt }
      : undefined,
    datePublished: s.publishedAt,
    dateModified: s.modifiedAt,
    author: s.author ? { "@type": "Person", name: s.author } : undefined,
    mainEntityOfPage: { "@type": "WebPage", "@id": s.canonical },
    publisher: s.publisher ? { "@type": "Organization", name: s.publisher } : undefined,
  }) as Record<string, unknown>;
}

export function breadcrumbJsonLd(s: ItemSeo): Record<string, unknown> {
  return dropEmpty({
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: s.breadcrumbs.map((b, i) => ({ "@type": "ListItem", position: i + 1, name: b.name, item: b.url })),
  }) as Record<string, unknown>;
}

const jsonLd = (data: Record<string, unknown>) => `<script type="application/ld+json">${jsonForScript(data)}</script>`;

/**
 * Everything appended to an item page's head, after the captured versions of these tags were
 * removed. `main` is the item's own JSON-LD (its schema type's, rich-results/build.ts); null
 * writes none but the breadcrumbs.
 */
export function itemHead(s: ItemSeo, main: Record<string, unknown> | null): string {
  return [
    titleTag(s),
    descriptionTag(s),
    canonicalTag(s),
    ...openGraphTags(s),
    ...twitterTags(s),
    main ? jsonLd(main) : "",
    jsonLd(breadcrumbJsonLd(s)),
  ]
    .filter(Boolean)
    .join("\n");
}

/** Removes undefined, null, "" and empty arrays or objects, recursively, so JSON-LD carries no empty keys. */
export function dropEmpty(value: unknown): unknown {
  if (Array.isArray(value)) {
    const list = value.map(dropEmpty).filter((v) => v !== undefined);
    return list.length ? list : undefined;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .map(([k, v]) => [k, dropEmpty(v)] as const)
      .filter(([, v]) => v !== undefined);
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return value === null || value === "" || value === undefined ? undefined : value;
}
