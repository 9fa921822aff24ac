/** BCP 47 codes as the service stores them; no zod here, so the public read path takes it without the schema library. */

/** The longest code taken: BCP 47 tags in use are far shorter ("zh-Hant-TW" is 10). */
export const LOCALE_CODE_MAX = 35;

/**
 * The canonical form of a BCP 47 tag ("es-mx" → "es-MX", "EN" → "en"), or null when it is not
 * one. Private-use and grandfathered forms Intl refuses are refused too.
 */
export function canonicalLocale(raw: string): string | null {
  if (raw.length === 0 || raw.length > LOCALE_CODE_MAX || !/^[A-Za-z0-9-]+$/.test(raw)) return null;
  try {
    const [code] = Intl.getCanonicalLocales(raw);
    return code ?? null;
  } catch {
    return null;
  }
}
