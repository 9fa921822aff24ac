/**
 * The rules of field keys as plain values. The site object's reads need them at start-up; the
 * schemas built on them (fields.ts, zod) are only evaluated by the writes that validate input.
 */

/** Keys that name an item's own properties; fields may not shadow them. */
export const SYSTEM_KEYS = ["id", "slug", "collection", "status", "publishedAt", "updatedAt", "createdAt"] as const;
/** System properties that are always indexed, so they may always be sorted and filtered. */
export const SYSTEM_SORT_KEYS = ["publishedAt", "updatedAt", "slug"] as const;

// Field keys end up inside SQL JSON paths and index names, so they are kept to this pattern.
export const FIELD_KEY = /^[a-zA-Z][a-zA-Z0-9_]{0,63}$/;

/** The most options one Option field may list. */
export const MAX_OPTIONS = 100;
