import { ApiError, clip } from "../../../src/contract/errors";
import { suggest } from "../../../src/shared/suggest";
import type { Field } from "../../../src/contract/fields";
import { DECIMAL_PATTERN, MAX_GALLERY } from "../../../src/contract/field-types";
import { type MediaRow, newMedia } from "./media";
import { sanitizeRichText } from "./rich-text";
import { isHttpUrl } from "../../../src/contract/urls";
import { isSafeLink, normalizeDate } from "./values";

export type ItemData = Record<string, unknown>;

export interface Issue {
  path: string;
  message: string;
}

/** Lookups validation needs from the site's database (read only). */
export interface DataLookups {
  mediaExists(id: string): boolean;
  /** A media entry's MIME type when known (null for a link without one): a gallery refuses video. */
  mediaType?(id: string): string | null;
  /** The id of the item in `collectionSlug` whose id or slug is `ref`, or null. */
  resolveReference(collectionSlug: string, ref: string): string | null;
}

export interface ValidatedData {
  data: ItemData;
  /** Media given inline (`{url, alt}`) to register with the item, in the same transaction. */
  newMedia: MediaRow[];
}

const MAX_REFERENCES = 100;
const MAX_TEXT = 200_000;

/**
 * Checks `input` against a collection's fields and returns the data to store.
 * `base` is the stored data for a merge (PATCH); `null` in the input clears a field.
 * Every problem is collected, so one 400 names them all.
 */
export function validateItemData(
  fields: readonly Field[],
  input: unknown,
  base: ItemData | null,
  lookups: DataLookups,
  pathPrefix = "data",
): ValidatedData {
  const issues: Issue[] = [];
  const media: MediaRow[] = [];
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new ApiError("bad_request", `${pathPrefix} must be an object keyed by field key.`);
  }
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const out: ItemData = { ...(base ?? {}) };

  for (const [key, value] of Object.entries(input)) {
    const field = byKey.get(key);
    const path = `${pathPrefix}.${clip(key)}`;
    if (!field) {
      const hint = suggest(key, [...byKey.keys()]);
      issues.push({
        path,
        message: `unknown field "${clip(key)}"${hint ? ` (did you mean "${hint}"?)` : ""}; fields: ${[...byKey.keys()].join(", ") || "none"}`,
      });
      continue;
    }
    if (value === null) {
      delete out[key];
      continue;
    }
    const result = checkValue(field, value, lookups, media);
    if (typeof result === "string") issues.push({ path, message: result });
    else out[key] = result.value;
  }

  for (const f of fields) {
    const v = out[f.key];
    if (f.required && (v === undefined || v === "" || (Array.isArray(v) && v.length === 0))) {
      issues.push({ path: `${pathPrefix}.${f.key}`, message: "is required" });
    }
  }

  if (issues.length > 0) {
    const first = issues[0] as Issue;
    throw new ApiError("bad_request", `Invalid item: ${first.path} ${first.message}`, { issues });
  }
  return { data: inFieldOrder(fields, out), newMedia: media };
}

/**
 * The values in the collection's field order (any key of no field after them): the order the
 * public object is built in, so an item's stored data is its public JSON, or that JSON with media
 * laid over it, and is not kept twice (public-items.ts).
 */
function inFieldOrder(fields: readonly Field[], data: ItemData): ItemData {
  const ordered: ItemData = {};
  for (const f of fields) if (data[f.key] !== undefined) ordered[f.key] = data[f.key];
  for (const [k, v] of Object.entries(data)) if (!(k in ordered)) ordered[k] = v;
  return ordered;
}

function checkValue(field: Field, value: unknown, lookups: DataLookups, media: MediaRow[]): { value: unknown } | string {
  switch (field.type) {
    case "text":
    case "richText":
      if (typeof value !== "string") return `must be a string, got ${describe(value)}`;
      if (value.length > MAX_TEXT) return `is longer than ${MAX_TEXT} characters`;
      return { value: field.type === "richText" ? sanitizeRichText(value) : value };
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return `must be a finite number, got ${describe(value)}`;
      return { value };
    case "decimal":
      return decimalOf(value);
    case "boolean":
      if (typeof value !== "boolean") return `must be true or false, got ${describe(value)}`;
      return { value };
    case "date": {
      if (typeof value !== "string") return `must be an ISO 8601 date string, got ${describe(value)}`;
      const d = normalizeDate(value);
      return d ? { value: d } : `must be an ISO 8601 date like 2024-05-01 or 2024-05-01T09:30:00Z, got "${clip(value)}"`;
    }
    case "link":
      if (typeof value !== "string") return `must be a URL string, got ${describe(value)}`;
      return isSafeLink(value) ? { value } : `must be an http(s), mailto: or tel: URL or a path starting with /, got "${clip(value)}"`;
    case "image":
    case "video":
      return checkMedia(value, lookups, media);
    case "gallery":
      return checkGallery(value, lookups, media);
    case "option": {
      const values = (field.options ?? []).map((o) => o.value);
      if (typeof value !== "string" || !values.includes(value)) {
        return `must be one of ${values.map((v) => `"${clip(v)}"`).join(", ")}, got ${typeof value === "string" ? `"${clip(value)}"` : describe(value)}`;
      }
      return { value };
    }
    case "reference": {
      if (typeof value !== "string") return `must be the id or slug of an item in "${field.collection}"`;
      const id = lookups.resolveReference(field.collection as string, value);
      return id ? { value: id } : `no item "${clip(value)}" in collection "${field.collection}"`;
    }
    case "references": {
      if (!Array.isArray(value)) return `must be an array of ids or slugs of items in "${field.collection}"`;
      if (value.length > MAX_REFERENCES) return `holds more than ${MAX_REFERENCES} references`;
      const ids: string[] = [];
      for (const ref of value) {
        if (typeof ref !== "string") return `must hold only ids or slugs (strings), got ${describe(ref)}`;
        const id = lookups.resolveReference(field.collection as string, ref);
        if (!id) return `no item "${clip(ref)}" in collection "${field.collection}"`;
        if (!ids.includes(id)) ids.push(id);
      }
      return { value: ids };
    }
  }
}

/**
 * A gallery: media ids in order, each entry given as an image field's value is (an id, or
 * `{url, alt?}` registering new media). The same image twice is kept once, at its first place.
 */
function checkGallery(value: unknown, lookups: DataLookups, media: MediaRow[]): { value: string[] } | string {
  if (!Array.isArray(value)) return `must be an array of mediaIds or {url, alt?} objects, got ${describe(value)}`;
  if (value.length > MAX_GALLERY) return `holds more than ${MAX_GALLERY} images`;
  const ids: string[] = [];
  for (const [i, entry] of value.entries()) {
    const checked = checkMedia(entry, lookups, media);
    if (typeof checked === "string") return `[${i}] ${checked}`;
    const id = checked.value as string;
    if (lookups.mediaType?.(id)?.startsWith("video/")) return `[${i}] media "${clip(id)}" is a video; a gallery holds images`;
    if (!ids.includes(id)) ids.push(id);
  }
  return { value: ids };
}

function checkMedia(value: unknown, lookups: DataLookups, media: MediaRow[]): { value: unknown } | string {
  if (typeof value === "string") {
    return lookups.mediaExists(value) ? { value } : `no media "${clip(value)}" on this site (POST /media first, or give {url, alt})`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return "must be a mediaId or an object {url, alt?, width?, height?}";
  }
  const v = value as Record<string, unknown>;
  const unknownKeys = Object.keys(v).filter((k) => !["url", "alt", "width", "height"].includes(k));
  if (unknownKeys.length) return `has unknown keys ${clip(unknownKeys.join(", "))} (allowed: url, alt, width, height)`;
  if (typeof v.url !== "string" || !isHttpUrl(v.url)) return "url must be an absolute http(s) URL";
  if (v.alt !== undefined && typeof v.alt !== "string") return "alt must be a string";
  for (const dim of ["width", "height"] as const) {
    const d = v[dim];
    if (d !== undefined && !(typeof d === "number" && Number.isInteger(d) && d > 0 && d <= 100_000)) {
      return `${dim} must be a positive integer`;
    }
  }
  const row = newMedia({
    url: v.url,
    alt: v.alt as string | undefined,
    width: v.width as number | undefined,
    height: v.height as number | undefined,
  });
  media.push(row);
  return { value: row.id };
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `${typeof v} ${JSON.stringify(v)?.slice(0, 40)}`;
}

/**
 * A decimal's value: text as given ("34.90" keeps its zero), or a number written as its shortest
 * exact text (34.9 → "34.9"); an exponent, a comma or more digits than DECIMAL_PATTERN allows is refused.
 */
function decimalOf(value: unknown): { value: string } | string {
  const text = typeof value === "number" && Number.isFinite(value) ? String(value) : typeof value === "string" ? value.trim() : null;
  if (text === null) return `must be a decimal number written as text, such as "34.90", got ${describe(value)}`;
  return DECIMAL_PATTERN.test(text)
    ? { value: text }
    : `must be a decimal number such as "34.90" (a dot, at most 15 digits before it and 8 after), got "${clip(text)}"`;
}
