/**
 * Which field feeds which SEO tag: the capture's `seo` settings when given,
 * otherwise sensible defaults by name and type.
 */
import type { Collection } from "../storage/rows";
import type { Field } from "../../../src/contract/fields";

export interface SeoSettings {
  titleField?: string;
  descriptionField?: string;
  imageField?: string;
  authorField?: string;
  siteName?: string;
  publisher?: string;
  feedItems?: number;
}

export interface SeoFields {
  title: Field | null;
  description: Field | null;
  body: Field | null;
  image: Field | null;
  author: Field | null;
}

const byName = (fields: readonly Field[], names: readonly string[], types: readonly string[]) =>
  names.map((n) => fields.find((f) => f.key.toLowerCase() === n && types.includes(f.type))).find(Boolean) ?? null;

export function seoFields(collection: Collection, settings: SeoSettings): SeoFields {
  const f = collection.fields;
  const chosen = (key: string | undefined) => (key ? (f.find((x) => x.key === key) ?? null) : undefined);
  return {
    title: chosen(settings.titleField) ?? byName(f, ["title", "name", "headline"], ["text"]) ?? f.find((x) => x.type === "text") ?? null,
    description:
      chosen(settings.descriptionField) ?? byName(f, ["description", "summary", "excerpt", "subtitle", "intro"], ["text", "richText"]),
    body: f.find((x) => x.type === "richText") ?? null,
    image: chosen(settings.imageField) ?? f.find((x) => x.type === "image") ?? null,
    author: chosen(settings.authorField) ?? byName(f, ["author", "authors", "writer", "byline"], ["reference", "references", "text"]),
  };
}
