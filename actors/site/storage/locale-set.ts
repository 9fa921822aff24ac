import type { LocaleRow } from "./locales-table";
import { canonicalLocale } from "../../../src/contract/locale-code";

/** The path prefix of a secondary locale's pages and documents: its code in lower case (`/es-mx`). */
export const localePrefix = (code: string): string => `/${code.toLowerCase()}`;

/** One locale of the site with the chain its values come from. */
export interface SiteLocale {
  id: number;
  code: string;
  primary: boolean;
  /** The next locale's code (null for the primary). */
  fallback: string | null;
  /** Ids of the secondaries its values come from, itself first; the primary (the item's own values) is not in it. */
  chain: number[];
  /** The same chain as codes, the primary last. */
  chainCodes: string[];
}

/** The site's locales as reads and writes use them; empty when the site has none set. */
export interface SiteLocaleSet {
  all: readonly SiteLocale[];
  primary: SiteLocale | null;
  /** A locale by its canonical code. */
  byCode: ReadonlyMap<string, SiteLocale>;
  byId: ReadonlyMap<number, SiteLocale>;
}

/**
 * The chains of stored locales. A chain stops at the primary, and at a locale it already holds
 * (writes refuse a circle; this keeps a read bounded whatever is stored).
 */
export function localeSet(rows: readonly LocaleRow[]): SiteLocaleSet {
  const rowById = new Map(rows.map((r) => [r.id, r]));
  const primaryRow = rows[0];
  const all = rows.map((r, i): SiteLocale => {
    const chain: number[] = [];
    if (i > 0) {
      let at: LocaleRow | undefined = r;
      while (at && at !== primaryRow && !chain.includes(at.id)) {
        chain.push(at.id);
        at = at.fallback === null ? primaryRow : rowById.get(at.fallback);
      }
    }
    const codes = chain.map((id) => rowById.get(id)!.code);
    if (primaryRow) codes.push(primaryRow.code);
    const fallback = i === 0 ? null : (rowById.get(r.fallback ?? -1)?.code ?? primaryRow?.code ?? null);
    return { id: r.id, code: r.code, primary: i === 0, fallback, chain, chainCodes: codes };
  });
  return {
    all,
    primary: all[0] ?? null,
    byCode: new Map(all.map((l) => [l.code, l])),
    byId: new Map(all.map((l) => [l.id, l])),
  };
}

/** The site's locale `raw` names in any case or form (`FR`, ` es-mx `), or undefined. */
export function findLocale(locales: SiteLocaleSet, raw: string): SiteLocale | undefined {
  const code = canonicalLocale(raw.trim());
  return code === null ? undefined : locales.byCode.get(code);
}
