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
