/**
 * Slugs name collections and items in URLs: 1 to 128 characters of lowercase
 * ASCII letters, digits and single hyphens, starting and ending with a letter or digit.
 */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX = 128;

export function isSlug(value: string): boolean {
  return value.length <= SLUG_MAX && SLUG_PATTERN.test(value);
}

export const SLUG_RULE = "1-128 characters: lowercase letters a-z, digits and single hyphens, not at the start or end";

/** A slug the API accepts (a-z, 0-9, single hyphens), from any title (the dashboard's slug field, imports without a Slug column). */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 128)
    .replace(/-+$/, "");
}
