/**
 * Which field feeds which SEO tag: the capture's `seo` settings when given, otherwise the
 * contract's defaults (src/contract/item-title.ts), which the dashboard is sent as they are.
 */
import type { z } from "zod";
import type { seoSchema } from "../../../src/contract/ssr";
import type { Collection } from "../storage/rows";
import type { Field } from "../../../src/contract/fields";
import { authorFieldOf, bodyFieldOf, descriptionFieldOf, imageFieldOf, titleFieldOf } from "../../../src/contract/item-title";

/** The capture's SEO choices, as its `seo` object validates them. */
export type SeoSettings = z.infer<typeof seoSchema>;

export interface SeoFields {
  title: Field | null;
  description: Field | null;
  body: Field | null;
  image: Field | null;
  author: Field | null;
}

export function seoFields(collection: Collection, settings: SeoSettings): SeoFields {
  const f = collection.fields;
  const chosen = (key: string | undefined) => (key ? (f.find((x) => x.key === key) ?? null) : undefined);
  return {
    title: chosen(settings.titleField) ?? titleFieldOf(f),
    description: chosen(settings.descriptionField) ?? descriptionFieldOf(f),
    body: bodyFieldOf(f),
    image: chosen(settings.imageField) ?? imageFieldOf(f),
    author: chosen(settings.authorField) ?? authorFieldOf(f),
  };
}
