import type { Schema } from "../../../src/shared/binding/rules";
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
