/**
 * A field's value as a rich result property wants it: text, a list of image URLs, an ISO 8601
 * duration, a schema.org enumeration. Each function takes the field and the item's value and
 * answers undefined when there is nothing to say (an empty value never becomes a property).
 */
import type { Field } from "../../../../src/contract/fields";
import { isEmpty, isItem, isMedia } from "../../../../src/shared/binding/values";
import { plainText } from "../../content/plain-text";

/** Text without case, spaces or separators: how field names and option labels are matched. */
export const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "");

/** The text a value reads as: an option's label, a referenced item's name, rich text without tags. */
export function textOf(field: Field, value: unknown): string | undefined {
  if (isEmpty(value)) return undefined;
  if (field.type === "option" && typeof value === "string") return field.options?.find((o) => o.value === value)?.label ?? value;
  if (field.type === "richText" && typeof value === "string") return plainText(value).trim() || undefined;
  if (isItem(value)) {
    const d = value.data;
    const named = [d["name"], d["title"], d["headline"]].find((v) => typeof v === "string" && v.trim() !== "");
    return typeof named === "string" ? named : value.slug;
  }
  if (typeof value === "string") return value.trim() || undefined;
  if (typeof value === "number") return String(value);
  return undefined;
}

/** Every image's URL, in order (a gallery gives all of its images). */
export function imageUrls(value: unknown): string[] | undefined {
  const list = (Array.isArray(value) ? value : [value]).filter(isMedia).map((m) => m.url);
  return list.length ? list : undefined;
}

/** An amount as schema.org reads it: a decimal keeps its digits as text, a number stays one. */
export function amountOf(value: unknown): string | number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  return typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value) ? value : undefined;
}

/** Minutes (a number, or text of digits) or an ISO 8601 duration already written as one. */
export function durationOf(value: unknown): string | undefined {
  if (typeof value === "string" && /^P(?!$)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/.test(value.trim())) return value.trim();
  const minutes = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isFinite(minutes) || minutes <= 0) return undefined;
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes % 60);
  return `PT${h ? `${h}H` : ""}${m || !h ? `${m}M` : ""}`;
}

/** Lines of a list: a rich text's list items or paragraphs, or a text field's lines. */
export function linesOf(field: Field, value: unknown): string[] | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  let text = value;
  if (field.type === "richText") {
    const blocks = [...value.matchAll(/<(li|p)\b[^>]*>([\s\S]*?)<\/\1>/gi)].map((m) => plainText(m[2]!).trim()).filter(Boolean);
    if (blocks.length) return blocks;
    text = plainText(value);
  }
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, "").trim())
    .filter(Boolean);
  return lines.length ? lines : undefined;
}

const AVAILABILITY: [RegExp, string][] = [
  [/^(soldout|outofstock|unavailable|none)$/, "OutOfStock"],
  [/^(lowstock|limited|limitedavailability|fewleft|lastones)$/, "LimitedAvailability"],
  [/^(preorder|presale|comingsoon)$/, "PreOrder"],
  [/^(backorder|backordered)$/, "BackOrder"],
  [/^(discontinued)$/, "Discontinued"],
  [/^(madetoorder)$/, "MadeToOrder"],
  [/^(instock|available|yes)$/, "InStock"],
];

/** An availability option (by value or label) or switch as a schema.org ItemAvailability URL. */
export function availabilityOf(field: Field, value: unknown): string | undefined {
  if (field.type === "boolean") return typeof value === "boolean" ? `https://schema.org/${value ? "InStock" : "OutOfStock"}` : undefined;
  const words = [typeof value === "string" ? value : "", textOf(field, value) ?? ""].map(squash);
  for (const [pattern, name] of AVAILABILITY) if (words.some((w) => pattern.test(w))) return `https://schema.org/${name}`;
  return undefined;
}

/** An item condition (new, used, refurbished, damaged) as a schema.org OfferItemCondition URL. */
export function conditionOf(field: Field, value: unknown): string | undefined {
  const w = squash(textOf(field, value) ?? "");
  const name = /^(new|brandnew)/.test(w)
    ? "NewCondition"
    : /^(used|secondhand|preowned)/.test(w)
      ? "UsedCondition"
      : /^refurb/.test(w)
        ? "RefurbishedCondition"
        : /^damaged/.test(w)
          ? "DamagedCondition"
          : null;
  return name ? `https://schema.org/${name}` : undefined;
}

const EMPLOYMENT: [RegExp, string][] = [
  [/^(fulltime|permanent)/, "FULL_TIME"],
  [/^parttime/, "PART_TIME"],
  [/^(contract|contractor|freelance)/, "CONTRACTOR"],
  [/^(temporary|temp|seasonal)/, "TEMPORARY"],
  [/^(intern|internship|apprentice)/, "INTERN"],
  [/^(volunteer|voluntary)/, "VOLUNTEER"],
  [/^perdiem/, "PER_DIEM"],
];

/** An employment type as Google's JobPosting values (FULL_TIME …), OTHER for anything else. */
export function employmentTypeOf(field: Field, value: unknown): string | undefined {
  const text = textOf(field, value);
  if (text === undefined) return undefined;
  const w = squash(text);
  return EMPLOYMENT.find(([p]) => p.test(w))?.[1] ?? "OTHER";
}

/** A three-letter ISO 4217 code from a text or option value. */
export function currencyOf(field: Field, value: unknown): string | undefined {
  const v = typeof value === "string" ? value.trim().toUpperCase() : "";
  if (/^[A-Z]{3}$/.test(v)) return v;
  const label = (textOf(field, value) ?? "").trim().toUpperCase();
  return /^[A-Z]{3}$/.test(label) ? label : undefined;
}
