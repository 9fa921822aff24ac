/**
 * The cache versions of a site's public answers (docs/caching.md, "Versions"). Every content
 * change bumps the site's cache version, which retires every answer. Answers of semantic search
 * and related items (`/search`, `/related`) also depend on the search index, which changes again
 * when the index has embedded a change: those answers carry a version of their own, the cache
 * version with the index's generation since it, so re-embedding retires them alone and every
 * list, item and page answer stays valid.
 */

/** How many index changes one cache version can count before the site's cache version is bumped instead. */
export const SEARCH_GENERATIONS = 1_000_000;

/** The version of search and related answers: greater for every newer cache version, and for every index change within one. */
export function searchVersionOf(cacheVersion: number, generation = 0): number {
  return cacheVersion * SEARCH_GENERATIONS + generation;
}

/**
 * What each recent cache version changed, as the site object tells the front Worker: the ids of
 * the items a version's change touched (an item's edit, publish, unpublish, create or delete), or
 * null for any other change (a collection, the plan, media, the captured page, a hostname, ...).
 * A version missing from the list is unknown and counts as null: nothing may be carried across it.
 */
export type VersionChanges = readonly VersionChange[];
export interface VersionChange {
  version: number;
  items: readonly string[] | null;
  /**
   * When the version's change was edits of published items that stayed published (no item joined
   * or left any list), the public keys those edits changed (field keys, and `slug`, `updatedAt`,
   * `publishedAt`); otherwise absent or null. A list that shows none of `items` and whose order
   * and membership depend on none of these keys is the same bytes after the change.
   */
  fields?: readonly string[] | null;
}

/** How many recent versions the site object keeps, and how many item ids one version may name. */
export const CHANGES_KEPT = 8;
export const CHANGED_ITEMS_MAX = 16;

/**
 * `12:itm_a,itm_b,=title,=updatedAt;13:*` — for the CHANGES_HEADER of a write's answer. A changed
 * key is written `=key` among the ids (at most CHANGED_ITEMS_MAX in all, see `changeOf`): a reader
 * that knows no keys takes it for one more changed id, which only ever carries less.
 */
export function encodeChanges(changes: VersionChanges): string {
  return changes.map((c) => `${c.version}:${c.items ? [...c.items, ...(c.fields ?? []).map((f) => `=${f}`)].join(",") : "*"}`).join(";");
}

export function decodeChanges(text: string): VersionChanges {
  const out: VersionChange[] = [];
  for (const part of text.split(";").slice(-CHANGES_KEPT)) {
    const at = part.indexOf(":");
    const version = Number(part.slice(0, at));
    if (at < 1 || !Number.isSafeInteger(version)) continue;
    const listed = part.slice(at + 1);
    if (listed === "*") {
      out.push({ version, items: null });
      continue;
    }
    const tokens = listed.split(",").slice(0, CHANGED_ITEMS_MAX);
    const fields = tokens.filter((t) => t.startsWith("=")).map((t) => t.slice(1));
    out.push({ version, items: tokens.filter((t) => !t.startsWith("=")), fields: fields.length ? fields : null });
  }
  return out;
}

/**
 * What the site object records for a version: the items, and the keys an edit changed only when
 * both fit in CHANGED_ITEMS_MAX together (else the keys are left out: lists are read again).
 */
export function changeOf(version: number, items: readonly string[] | null, fields?: readonly string[] | null): VersionChange {
  if (!items || items.length > CHANGED_ITEMS_MAX) return { version, items: null };
  const keep = fields && fields.length && items.length + fields.length <= CHANGED_ITEMS_MAX ? [...fields] : null;
  return { version, items: [...items], fields: keep };
}

/**
 * Whether an answer that depends on item `item` alone (docs/caching.md, "Carried across a
 * version") is the same at version `to` as at `from`: every version after `from` up to `to` is
 * known, and each changed other items only.
 */
export function untouchedBetween(changes: VersionChanges | undefined, from: number, to: number, item: string): boolean {
  if (!changes || to <= from || to - from > changes.length) return false;
  for (let v = from + 1; v <= to; v++) {
    const entry = changes.find((c) => c.version === v);
    if (!entry?.items || entry.items.includes(item)) return false;
  }
  return true;
}

/**
 * Whether a list answer is the same at version `to` as at `from`: every version after `from` up to
 * `to` is known to be edits only (`fields`), of items the answer does not show (`shows`), changing
 * no key the list's order or membership depends on (`dependsOn`, compared ignoring case as the
 * site object folds a key's case).
 */
export function listUntouchedBetween(
  changes: VersionChanges | undefined,
  from: number,
  to: number,
  dependsOn: readonly string[],
  shows: (item: string) => boolean,
): boolean {
  if (!changes || to <= from || to - from > changes.length) return false;
  const keys = new Set(dependsOn.map((k) => k.toLowerCase()));
  for (let v = from + 1; v <= to; v++) {
    const entry = changes.find((c) => c.version === v);
    if (!entry?.items || !entry.fields) return false;
    if (entry.fields.some((f) => keys.has(f.toLowerCase()))) return false;
    if (entry.items.some(shows)) return false;
  }
  return true;
}

/** Keeps the newest CHANGES_KEPT versions of both lists, the later word for a version winning. */
export function mergeChanges(older: VersionChanges | undefined, newer: VersionChanges): VersionChanges {
  const byVersion = new Map<number, VersionChange>();
  for (const c of older ?? []) byVersion.set(c.version, c);
  for (const c of newer) byVersion.set(c.version, c);
  return [...byVersion.values()].sort((a, b) => a.version - b.version).slice(-CHANGES_KEPT);
}
