/**
 * An item page's JSON-LD for its collection's schema type, and what it lacks: each property is
 * read from its mapped field (or the page's own title, description, image, publish time), written
 * as Google reads it, and left out when empty; a required one left out is reported, never sent
 * as null. Article types keep the tags the page's head already resolved (meta.ts).
 */
import type { Field } from "../../../../src/contract/fields";
import type { PublicItem } from "../../../../src/contract/responses";
import type { SchemaType } from "../../../../src/contract/schema-types";
import { articleJsonLd, dropEmpty, type ItemSeo } from "../meta";
import type { Mapping } from "./mapping";
import { SCHEMA_PROPERTIES, type PropertySpec } from "./spec";
import { amountOf, availabilityOf, conditionOf, currencyOf, durationOf, employmentTypeOf, imageUrls, linesOf, textOf } from "./values";

export interface RichResult {
  type: SchemaType;
  /** The JSON-LD object, or null for `none`. */
  jsonLd: Record<string, unknown> | null;
  /** Required properties without a value: the item is not eligible until they have one. */
  missing: string[];
  /** Recommended properties without a value. */
  missingRecommended: string[];
  /**
   * A job past its closing date (`validThrough`) or an event that has ended (`endDate`, else
   * `startDate`): Google drops it from job search and event results, so it is not eligible.
   */
  expired: boolean;
}

/** The property whose time ends an item's rich result, by type. */
const ENDS: Partial<Record<SchemaType, readonly string[]>> = { JobPosting: ["validThrough"], Event: ["endDate", "startDate"] };

/**
 * Whether the first of `paths` with a value is past. A date field's value is its day's midnight
 * (UTC): a job closing that day takes applications until the day is over.
 */
function isPast(values: Values, paths: readonly string[] | undefined, now: number): boolean {
  const v = paths?.map((p) => values.get(p)).find((x) => typeof x === "string" && x !== "");
  if (typeof v !== "string") return false;
  const day = /^(\d{4}-\d{2}-\d{2})(?:T00:00(?::00(?:\.0+)?)?Z)?$/.exec(v);
  const at = Date.parse(day ? `${day[1]}T23:59:59.999Z` : v);
  return Number.isFinite(at) && at < now;
}

type Values = Map<string, unknown>;

/** Each property's value for this item, as it goes into the JSON-LD (absent: nothing to say). */
function valuesOf(type: SchemaType, item: PublicItem, mapping: Mapping, seo: ItemSeo): Values {
  const out: Values = new Map();
  for (const spec of SCHEMA_PROPERTIES[type]) {
    const field = mapping.fields[spec.path] ?? null;
    const v = field ? convert(type, spec, field, item.data[field.key]) : automatic(spec, seo);
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) out.set(spec.path, v);
  }
  // A price in a decimal field carries its currency with it.
  const price = mapping.fields["offers.price"];
  if (!out.has("offers.priceCurrency") && price?.currency && out.has("offers.price")) out.set("offers.priceCurrency", price.currency);
  return out;
}

function automatic(spec: PropertySpec, seo: ItemSeo): unknown {
  switch (spec.automatic) {
    case "title":
      return seo.title || undefined;
    case "description":
      return seo.description || undefined;
    case "image":
      return seo.image ? [seo.image.url] : undefined;
    case "publishedAt":
      return seo.publishedAt || undefined;
    case "publisher":
      return seo.publisher || seo.siteName || undefined;
    default:
      return undefined;
  }
}

function convert(type: SchemaType, spec: PropertySpec, field: Field, value: unknown): unknown {
  switch (spec.path) {
    case "image":
      return imageUrls(value);
    case "offers.price":
    case "baseSalary.value.minValue":
    case "baseSalary.value.maxValue":
      return amountOf(value);
    case "offers.priceCurrency":
      return currencyOf(field, value);
    case "offers.availability":
      return availabilityOf(field, value);
    case "offers.itemCondition":
      return conditionOf(field, value);
    case "employmentType":
      return employmentTypeOf(field, value);
    case "jobLocationType":
      return value === true ? "TELECOMMUTE" : undefined;
    case "prepTime":
    case "cookTime":
    case "totalTime":
      return durationOf(value);
    case "recipeYield":
      return textOf(field, value);
    case "recipeIngredient":
      return linesOf(field, value);
    case "recipeInstructions":
      return linesOf(field, value)?.map((text) => ({ "@type": "HowToStep", text }));
    case "description":
      // A job's description is read as HTML (paragraphs and lists); elsewhere, as text.
      return type === "JobPosting" && field.type === "richText" && typeof value === "string" && value.trim() ? value : textOf(field, value);
    default:
      return field.type === "date" ? (typeof value === "string" && value ? value : undefined) : textOf(field, value);
  }
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const steps = path.split(".");
  let at = target;
  for (const step of steps.slice(0, -1)) {
    const next = at[step];
    at = (typeof next === "object" && next !== null ? next : (at[step] = {})) as Record<string, unknown>;
  }
  at[steps.at(-1)!] = value;
}

/** The nested objects' types, once their properties are in. */
const TYPED: Partial<Record<SchemaType, Record<string, string>>> = {
  Product: { offers: "Offer", brand: "Brand" },
  JobPosting: {
    hiringOrganization: "Organization",
    jobLocation: "Place",
    "jobLocation.address": "PostalAddress",
    baseSalary: "MonetaryAmount",
    "baseSalary.value": "QuantitativeValue",
  },
  Event: { location: "Place", "location.address": "PostalAddress", offers: "Offer", organizer: "Organization" },
  Recipe: { author: "Person" },
  FAQPage: { mainEntity: "Question", "mainEntity.acceptedAnswer": "Answer" },
};

function typeNested(type: SchemaType, ld: Record<string, unknown>): void {
  for (const [path, name] of Object.entries(TYPED[type] ?? {})) {
    let at: unknown = ld;
    for (const step of path.split(".")) at = typeof at === "object" && at !== null ? (at as Record<string, unknown>)[step] : undefined;
    if (typeof at === "object" && at !== null && !Array.isArray(at)) (at as Record<string, unknown>)["@type"] = name;
  }
}

export function richResultOf(item: PublicItem, mapping: Mapping, seo: ItemSeo, now = Date.now()): RichResult {
  const { type } = mapping;
  if (type === "none") return { type, jsonLd: null, missing: [], missingRecommended: [], expired: false };
  const values = valuesOf(type, item, mapping, seo);
  const specs = SCHEMA_PROPERTIES[type];
  const lacking = (need: PropertySpec["need"]) => specs.filter((p) => p.need === need && !values.has(p.path)).map((p) => p.path);
  let missing = lacking("required");
  let missingRecommended = lacking("recommended");
  let jsonLd: Record<string, unknown>;
  if (type === "Article" || type === "BlogPosting" || type === "NewsArticle") {
    jsonLd = { ...articleJsonLd(seo), "@type": type };
  } else {
    const ld: Record<string, unknown> = { "@context": "https://schema.org", "@type": type };
    for (const [path, v] of values) setPath(ld, path, v);
    if (type === "Product" && ld["offers"]) setPath(ld, "offers.url", seo.canonical);
    if (type === "Event" && ld["offers"]) setPath(ld, "offers.url", seo.canonical);
    if (type === "JobPosting") [missing, missingRecommended] = jobRules(ld, values, mapping, missing, missingRecommended);
    if (type !== "FAQPage") ld["url"] = seo.canonical;
    typeNested(type, ld);
    jsonLd = dropEmpty(ld) as Record<string, unknown>;
  }
  return { type, jsonLd, missing, missingRecommended, expired: isPast(values, ENDS[type], now) };
}

/**
 * A job's place and pay: a remote job needs no office but the countries it takes applicants
 * from (the country field), and a salary range takes its currency from its decimal field and
 * is a yearly amount.
 */
function jobRules(
  ld: Record<string, unknown>,
  values: Values,
  mapping: Mapping,
  missing: string[],
  recommended: string[],
): [string[], string[]] {
  const remote = values.get("jobLocationType") === "TELECOMMUTE";
  const country = values.get("jobLocation.address.addressCountry");
  if (remote) {
    delete ld["jobLocation"];
    missing = missing.filter((p) => p !== "jobLocation.address.addressLocality");
    if (country) ld["applicantLocationRequirements"] = { "@type": "Country", name: country };
    else {
      missing = [...missing, "jobLocation.address.addressCountry"];
      recommended = recommended.filter((p) => p !== "jobLocation.address.addressCountry");
    }
  }
  if (ld["baseSalary"]) {
    const salaryField = mapping.fields["baseSalary.value.minValue"] ?? mapping.fields["baseSalary.value.maxValue"];
    const currency = salaryField?.currency;
    if (currency) setPath(ld, "baseSalary.currency", currency);
    else delete ld["baseSalary"];
    if (ld["baseSalary"]) setPath(ld, "baseSalary.value.unitText", "YEAR");
  }
  return [missing, recommended];
}
