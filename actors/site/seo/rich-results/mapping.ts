/**
 * Which schema type a collection's pages describe and which field fills each property: the
 * owner's choice where the capture's `seo.richResults` makes one, otherwise proposed from the
 * fields' names and types, so a shop or a job board needs no setup.
 */
import type { Field } from "../../../../src/contract/fields";
import type { SchemaType } from "../../../../src/contract/schema-types";
import type { SeoFields, SeoSettings } from "../fields";
import { type PropertySpec, SCHEMA_PROPERTIES } from "./spec";
import { squash } from "./values";

const names = (f: Field) => [squash(f.key), squash(f.name ?? "")].filter(Boolean);
const has = (fields: readonly Field[], words: readonly string[]) => fields.some((f) => names(f).some((n) => words.includes(n)));

/** The type the fields make obvious: a job board, a shop, events, recipes; else an article. */
export function proposeType(fields: readonly Field[]): SchemaType {
  const jobWords = ["company", "employer", "salary", "salaryfrom", "salarymin", "employmenttype", "closes", "closingdate", "remote"];
  if (fields.filter((f) => names(f).some((n) => jobWords.includes(n))).length >= 2) return "JobPosting";
  if (has(fields, ["ingredients", "ingredient"])) return "Recipe";
  if (
    fields.some((f) => f.type === "date" && names(f).some((n) => ["start", "startdate", "starts"].includes(n))) &&
    has(fields, ["venue", "location", "place"])
  )
    return "Event";
  if (fields.some((f) => (f.type === "decimal" && f.currency) || (["decimal", "number"].includes(f.type) && names(f).includes("price"))))
    return "Product";
  return "Article";
}

export interface Mapping {
  type: SchemaType;
  /** Whether the owner chose the type (false: proposed from the fields). */
  chosen: boolean;
  /** Each property's field, or null when none fills it. */
  fields: Record<string, Field | null>;
}

/** The type and each property's field: chosen ones first, then the SEO fields, then by name. */
export function mappingOf(fields: readonly Field[], seo: SeoFields, settings: SeoSettings): Mapping {
  const rr = settings.richResults;
  const type = rr?.type ?? proposeType(fields);
  const specs = SCHEMA_PROPERTIES[type];
  const out: Record<string, Field | null> = {};
  const used = new Set<string>();
  const byKey = (key: string | undefined) => (key ? (fields.find((f) => f.key === key) ?? null) : null);
  // Chosen first, so a proposal never takes a field the owner gave to another property.
  for (const spec of specs) {
    const key = rr?.fields?.[spec.path];
    if (key === undefined) continue;
    const f = byKey(key);
    out[spec.path] = f && spec.accepts.includes(f.type) ? f : null;
    if (f) used.add(f.key);
  }
  for (const spec of specs) {
    if (spec.path in out) continue;
    const f = proposeField(spec, fields, seo, used);
    if (f) {
      out[spec.path] = f;
      used.add(f.key);
    }
  }
  // Last, a description without a field of its own takes the rich text body, unless a property
  // named for it (a recipe's method) took it already.
  for (const spec of specs) {
    if (spec.path in out) continue;
    const body =
      spec.automatic === "description" && seo.body && !used.has(seo.body.key) && spec.accepts.includes(seo.body.type) ? seo.body : null;
    out[spec.path] = body;
    if (body) used.add(body.key);
  }
  return { type, chosen: rr !== undefined, fields: out };
}

function proposeField(spec: PropertySpec, fields: readonly Field[], seo: SeoFields, used: Set<string>): Field | null {
  const fits = (f: Field | null): f is Field => f !== null && spec.accepts.includes(f.type) && !used.has(f.key);
  // The SEO tags' own fields fill the same properties the page's title, description and image do.
  const seoField =
    spec.automatic === "title"
      ? seo.title
      : spec.automatic === "description"
        ? seo.description
        : spec.automatic === "image"
          ? seo.image
          : null;
  if (fits(seoField)) return seoField;
  for (const word of spec.guess) {
    const f = fields.find((x) => fits(x) && names(x).includes(word));
    if (f) return f;
  }
  return null;
}
