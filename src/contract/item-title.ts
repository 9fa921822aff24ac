/**
 * Which field names an item, and which fields feed a page's SEO tags when the capture chooses
 * none: one rule, here, for the service (SEO title, search text, overview) and, sent with each
 * collection as `titleField` and `seoDefaults`, for the dashboard (tables, pickers, the SEO form's
 * "Automatic" choices). Nothing here knows about storage or the Workers runtime.
 */
import type { Field } from "./fields";

/** Field keys that name an item, in order of preference (matched without regard to case). */
export const TITLE_KEYS = ["title", "name", "headline"] as const;
const DESCRIPTION_KEYS = ["description", "summary", "excerpt", "subtitle", "intro"] as const;
const AUTHOR_KEYS = ["author", "authors", "writer", "byline"] as const;

const byName = (fields: readonly Field[], names: readonly string[], types: readonly string[]): Field | null =>
  names.map((n) => fields.find((f) => f.key.toLowerCase() === n && types.includes(f.type))).find(Boolean) ?? null;

/** The field that names an item: a text field called title, name or headline, else the first text field. */
export function titleFieldOf(fields: readonly Field[]): Field | null {
  return byName(fields, TITLE_KEYS, ["text"]) ?? fields.find((f) => f.type === "text") ?? null;
}

/** An item's title: its title field's value when that is non-empty text, else null (show the slug). */
export function itemTitleOf(fields: readonly Field[], data: Readonly<Record<string, unknown>>): string | null {
  const f = titleFieldOf(fields);
  const v = f ? data[f.key] : undefined;
  return typeof v === "string" && v.trim() !== "" ? v : null;
}

/** The description field by name (text or rich text); without one the page's rich text body is used. */
export const descriptionFieldOf = (fields: readonly Field[]): Field | null => byName(fields, DESCRIPTION_KEYS, ["text", "richText"]);
/** The rich text body: the first rich text field. */
export const bodyFieldOf = (fields: readonly Field[]): Field | null => fields.find((f) => f.type === "richText") ?? null;
/** The social image: the first image field, else the first gallery field (its first image). */
export const imageFieldOf = (fields: readonly Field[]): Field | null =>
  fields.find((f) => f.type === "image") ?? fields.find((f) => f.type === "gallery") ?? null;
/** The author: a reference or text field called author, authors, writer or byline. */
export const authorFieldOf = (fields: readonly Field[]): Field | null => byName(fields, AUTHOR_KEYS, ["reference", "references", "text"]);

/** The keys the SEO tags take when the capture's `seo` settings name none (null: none). */
export interface SeoDefaults {
  titleField: string | null;
  /** The description field, else the rich text body it is drawn from. */
  descriptionField: string | null;
  imageField: string | null;
  authorField: string | null;
}

export function seoDefaultsOf(fields: readonly Field[]): SeoDefaults {
  return {
    titleField: titleFieldOf(fields)?.key ?? null,
    descriptionField: (descriptionFieldOf(fields) ?? bodyFieldOf(fields))?.key ?? null,
    imageField: imageFieldOf(fields)?.key ?? null,
    authorField: authorFieldOf(fields)?.key ?? null,
  };
}
