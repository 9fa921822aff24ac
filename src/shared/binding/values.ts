/**
 * How a field value reads when bound: the item shape both the content API
 * returns and the renderer receives, path lookup (`author.name`), emptiness
 * (for `data-oc-if`) and the text a value shows as.
 */

export interface BindableMedia {
  url: string;
  srcset?: string;
  alt?: string;
  /** 0–1 across and down: bound images keep this point in view (`object-position`). */
  focal?: { x: number; y: number };
}

export interface BindableItem {
  id: string;
  slug: string;
  collection: string;
  publishedAt: string;
  updatedAt?: string;
  data: Record<string, unknown>;
}

const ITEM_KEYS = new Set(["slug", "publishedAt", "updatedAt", "id"]);

/**
 * The key under which a gallery's repeated template finds its image (`data-oc-field="@"`,
 * `@.alt`): no field key can be spelled so, and outside a gallery's template it names nothing.
 */
export const GALLERY_IMAGE = "@";

/** A media's own parts a path may name after `@` (`@.alt`, `@.url`). */
const MEDIA_KEYS = new Set(["url", "alt"]);

/**
 * The value at `path`: a field key of the item, or `slug`, `publishedAt`,
 * `id` when no field has that key; dots follow references (`author.name`)
 * and, after a gallery's `@`, name the image's `url` or `alt`.
 */
export function lookup(item: BindableItem, path: string): unknown {
  const [head = "", ...rest] = path.split(".");
  let value: unknown = Object.hasOwn(item.data, head) ? item.data[head] : ITEM_KEYS.has(head) ? item[head as "slug"] : undefined;
  for (const key of rest) {
    if (Array.isArray(value)) value = value[0];
    value = isItem(value) ? lookup(value, key) : isMedia(value) && MEDIA_KEYS.has(key) ? value[key as "url"] : undefined;
  }
  return value;
}

/** The item a gallery's template is bound to once per image: the item itself, with the image as `@`. */
export function withGalleryImage(item: BindableItem, image: BindableMedia): BindableItem {
  return { ...item, data: { ...item.data, [GALLERY_IMAGE]: image } };
}

export function isItem(value: unknown): value is BindableItem {
  return typeof value === "object" && value !== null && "slug" in value && "data" in value;
}

export function isMedia(value: unknown): value is BindableMedia {
  return typeof value === "object" && value !== null && typeof (value as { url?: unknown }).url === "string";
}

/** Empty means: missing, null, "", false or an empty list. Zero is a value. */
export function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === "" || value === false || (Array.isArray(value) && value.length === 0);
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/**
 * The text a value shows as. `format` applies to dates (see `formatDate`) and to numbers (see
 * `formatNumber`); `locale` is the locale numbers show in.
 */
export function displayText(value: unknown, format: string | null, locale: string | null = null): string {
  if (isEmpty(value)) return "";
  if (typeof value === "string") {
    if (ISO_DATE.test(value) && format !== RAW_DATES) return formatDate(value, format);
    return DECIMAL.test(value) ? (formatNumber(value, format, locale) ?? value) : value;
  }
  if (typeof value === "number") return formatNumber(value, format, locale) ?? String(value);
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value))
    return value
      .map((v) => displayText(v, format, locale))
      .filter((s) => s !== "")
      .join(", ");
  if (isMedia(value)) return value.url;
  if (isItem(value)) return displayText(value.data.title ?? value.data.name ?? value.slug, format, locale);
  return "";
}

/** A number written as text, as an exact decimal ("34.90"): formatted like a number when a number format asks. */
const DECIMAL = /^-?\d{1,15}(?:\.\d{1,15})?$/;
const NUMBER_FORMAT = /^(?:number(?::([0-6]))?|money:([A-Z]{3})(?::([0-6]))?)$/;
/** The locale numbers show in when the element names none. */
export const DEFAULT_LOCALE = "en-US";
const formatters = new Map<string, Intl.NumberFormat | null>();
const MAX_FORMATTERS = 64;

/**
 * A number in a number format, or null when `format` is none (the number then shows as stored):
 * `number` (grouped, up to 3 decimals), `number:N` (exactly N decimals, 0–6), `money:EUR` (an
 * ISO 4217 currency, with that currency's decimals), `money:EUR:0` (with N decimals: a salary). `locale` is a BCP 47 tag (`de-DE`); an
 * unknown one falls back to the default. Intl does the formatting on both sides: the browser's
 * and workerd's ICU agree for these styles.
 */
export function formatNumber(value: number | string, format: string | null, locale: string | null): string | null {
  const m = format ? NUMBER_FORMAT.exec(format.trim()) : null;
  if (!m) return null;
  const key = `${m[0]}|${locale ?? ""}`;
  let f = formatters.get(key);
  if (f === undefined) {
    const digits = m[3] !== undefined ? { minimumFractionDigits: Number(m[3]), maximumFractionDigits: Number(m[3]) } : {};
    const options: Intl.NumberFormatOptions = m[2]
      ? { style: "currency", currency: m[2], ...digits }
      : m[1] !== undefined
        ? { minimumFractionDigits: Number(m[1]), maximumFractionDigits: Number(m[1]) }
        : {};
    f = numberFormat(locale, options) ?? numberFormat(DEFAULT_LOCALE, options);
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatters.set(key, f);
  }
  if (!f) return null;
  // An exact decimal keeps its digits: Intl formats a numeric string without going through a double.
  return f.format(value as number);
}

function numberFormat(locale: string | null, options: Intl.NumberFormatOptions): Intl.NumberFormat | null {
  try {
    return new Intl.NumberFormat(locale ?? DEFAULT_LOCALE, options);
  } catch {
    return null;
  }
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
export const DEFAULT_DATE_FORMAT = "MMMM D, YYYY";
/** A format that leaves dates as stored: full ISO 8601 UTC. */
export const RAW_DATES = "raw";
const DATE_TOKENS = /YYYY|MMMM|MMM|MM|M|DD|D|dddd|ddd|HH|mm|\[[^\]]*\]/g;

/**
 * Formats an ISO date in UTC with tokens YYYY, MMMM (May), MMM (May), MM (05),
 * M (5), DD (01), D (1), dddd (Wednesday), ddd (Wed), HH, mm; `[text]` is
 * literal. `iso` gives `2024-05-01`. Written out by hand rather than with
 * Intl so the browser and the server produce the same characters.
 */
export function formatDate(iso: string, format: string | null): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pattern = !format ? DEFAULT_DATE_FORMAT : format === "iso" ? "YYYY-MM-DD" : format;
  const pad = (n: number) => String(n).padStart(2, "0");
  return pattern.replace(DATE_TOKENS, (t) => {
    switch (t) {
      case "YYYY":
        return String(d.getUTCFullYear()).padStart(4, "0");
      case "MMMM":
        return MONTHS[d.getUTCMonth()] as string;
      case "MMM":
        return (MONTHS[d.getUTCMonth()] as string).slice(0, 3);
      case "MM":
        return pad(d.getUTCMonth() + 1);
      case "M":
        return String(d.getUTCMonth() + 1);
      case "DD":
        return pad(d.getUTCDate());
      case "D":
        return String(d.getUTCDate());
      case "dddd":
        return DAYS[d.getUTCDay()] as string;
      case "ddd":
        return (DAYS[d.getUTCDay()] as string).slice(0, 3);
      case "HH":
        return pad(d.getUTCHours());
      case "mm":
        return pad(d.getUTCMinutes());
      default:
        return t.slice(1, -1);
    }
  });
}
