import type { Labels, Schema } from "../../../src/shared/binding/rules";
import type { Collection } from "../storage/rows";

/**
 * Field types by collection slug, for a collection and every collection its
 * reference fields point to: what a renderer needs to tell rich text from
 * plain text, also through `author.bio`.
 */
export function schemaFor(collection: Collection, all: readonly Collection[]): Schema {
  const out: Record<string, Record<string, string>> = {};
  const visit = (c: Collection) => {
    if (out[c.slug]) return;
    out[c.slug] = Object.fromEntries(c.fields.map((f) => [f.key, f.type]));
    for (const f of c.fields) {
      const target = f.collection ? all.find((x) => x.slug === f.collection) : undefined;
      if (target) visit(target);
    }
  };
  visit(collection);
  return out;
}

/** An option field's labels by value: the label people see, or the value when it has none. */
export function optionLabelsOf(collection: Collection): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const f of collection.fields) {
    if (f.type === "option" && f.options) out[f.key] = Object.fromEntries(f.options.map((o) => [o.value, o.label ?? o.value]));
  }
  return out;
}

/**
 * Option labels by collection slug, for the collections `schema` (schemaFor's answer) names;
 * collections without option fields are left out.
 */
export function labelsFor(schema: Schema, all: readonly Collection[]): Labels {
  const out: Record<string, Record<string, Record<string, string>>> = {};
  for (const slug of Object.keys(schema)) {
    const c = all.find((x) => x.slug === slug);
    const labels = c ? optionLabelsOf(c) : {};
    if (Object.keys(labels).length) out[slug] = labels;
  }
  return out;
}
