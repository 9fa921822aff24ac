/** Value rules shared by item validation and list filters, so both read a value the same way. */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Dates are stored as full ISO 8601 UTC strings (`2024-05-01T00:00:00.000Z`) so
 * that text comparison in SQLite is chronological. A date without a time is
 * midnight UTC; a time without an offset is UTC.
 */
export function normalizeDate(value: string): string | null {
  const v = value.trim();
  if (!ISO_DATE.test(v)) return null;
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(v) && v.length > 10;
  const withZone = v.length === 10 ? `${v}T00:00:00Z` : hasZone ? v : `${v}Z`;
  const t = Date.parse(withZone.replace(" ", "T"));
  if (!Number.isFinite(t) || !isRealCalendarDate(v)) return null;
  const year = new Date(t).getUTCFullYear();
  if (year < 1 || year > 9999) return null;
  return new Date(t).toISOString();
}

/** Date.parse rolls 2024-02-30 over to March; a date that does not exist is refused instead. */
function isRealCalendarDate(v: string): boolean {
  const [y, m, d] = v.slice(0, 10).split("-").map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) return false;
  const time = /[T ](\d{2}):(\d{2})(?::(\d{2}))?/i.exec(v);
  return !time || (Number(time[1]) <= 23 && Number(time[2]) <= 59 && Number(time[3] ?? 0) <= 59);
}

const SAFE_LINK = /^(?:https?:\/\/[^\s]+|mailto:[^\s]+|tel:[+\d\-\s().]+|\/[^\s]*|#[^\s]*)$/i;

/** Links are absolute http(s), mailto: or tel: URLs, or site paths (`/…`, `#…`); never `javascript:`. */
export function isSafeLink(value: string): boolean {
  if (!SAFE_LINK.test(value) || value.length > 2048) return false;
  if (/^https?:/i.test(value)) {
    try {
      new URL(value);
    } catch {
      return false;
    }
  }
  return true;
}

export function parseBooleanParam(value: string): boolean | null {
  const v = value.trim().toLowerCase();
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  return null;
}

export function parseNumberParam(value: string): number | null {
  if (value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}
