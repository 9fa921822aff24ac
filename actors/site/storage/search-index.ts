/**
 * The substring index of `search` (site migrations 30 and 34): an FTS5 table with the trigram
 * tokenizer over each item's search text and slug, so a search reads the items holding the term's trigrams instead
 * of every item of the collection. The index only narrows: each candidate is still checked with
 * `instr`, so answers and totals are exactly those of a scan. The table's one owner: the
 * migration's triggers keep it in step with `items` for every row the backfill has passed, and
 * the backfill (a job on the alarm, a slice of rows at a time) brings existing sites in.
 */

/** The backfill's mark once every row is indexed: the triggers then index every row. */
const COMPLETE = Number.MAX_SAFE_INTEGER;
/** Rows indexed per slice of the backfill (a few milliseconds each). */
const SLICE = 2_000;
/** Trigrams a 1–2 character term may stand for (those starting with it) before a search scans instead. */
const MAX_PREFIXED = 200;

export const SEARCH_INDEX_JOB = "search-index";

function builtTo(sql: SqlStorage): number {
  return sql.exec<{ built_to: number }>("SELECT built_to FROM search_index_state WHERE id = 1").one().built_to;
}

/** Whether searches may use the index: every row is in it. */
export function searchIndexReady(sql: SqlStorage): boolean {
  return builtTo(sql) === COMPLETE;
}

/**
 * One slice of the backfill, in one transaction with its mark: the rows after the mark, in seq
 * order. Rows written meanwhile above the mark are left to the backfill; rows at or below it are
 * kept by the triggers. Returns true when more is left.
 */
export function backfillSearchIndex(storage: DurableObjectStorage): boolean {
  return storage.transactionSync(() => {
    const sql = storage.sql;
    const from = builtTo(sql);
    if (from === COMPLETE) return false;
    const last = sql
      .exec<{ seq: number | null }>("SELECT max(seq) AS seq FROM (SELECT seq FROM items WHERE seq > ? ORDER BY seq LIMIT ?)", from, SLICE)
      .one().seq;
    if (last === null) {
      sql.exec("UPDATE search_index_state SET built_to = ? WHERE id = 1", COMPLETE);
      return false;
    }
    // The view is the one definition of an item's indexed text (the triggers write the same).
    sql.exec(
      "INSERT INTO items_fts (rowid, body) SELECT seq, body FROM items_search_source WHERE seq > ? AND seq <= ? ORDER BY seq",
      from,
      last,
    );
    sql.exec("UPDATE search_index_state SET built_to = ? WHERE id = 1", last);
    return true;
  });
}

const quoted = (gram: string) => `"${gram.replaceAll('"', '""')}"`;

/** How many rows a term's rarest trigram may be in for the index to drive a read; past it, walking the collection in order stops sooner. */
const NARROW_ROWS = 5_000;
/** Trigrams of a term looked up in the vocabulary, and how many of the rarest are ANDed. */
const LOOKED_UP = 64;
const ANDED = 4;

/** How many rows hold each of `grams` (0 for one no row holds), from the index's vocabulary. */
function rowsHolding(sql: SqlStorage, grams: readonly string[]): Map<string, number> {
  const found = sql
    .exec<{ term: string; doc: number }>(
      "SELECT term, doc FROM items_fts_vocab WHERE term IN (SELECT value FROM json_each(?))",
      JSON.stringify(grams),
    )
    .toArray();
  const out = new Map(grams.map((g) => [g, 0]));
  for (const r of found) out.set(r.term, r.doc);
  return out;
}

/** A query no row matches: no stored text holds three separators in a row. */
const NOTHING = quoted("\u001f\u001f\u001f");

/**
 * The FTS5 query that finds every item whose search text may hold `folded` (already folded as the
 * stored text is), or null when the index should not drive the read: not built yet, or a term so
 * common (its rarest trigram in more than NARROW_ROWS rows) that the collection's own order finds
 * a page sooner. Each stored text ends in two separators (U+001F), so an occurrence of a 1–2
 * character term is always the start of some trigram.
 */
export function searchMatch(sql: SqlStorage, folded: string): string | null {
  if (!searchIndexReady(sql)) return null;
  const chars = [...folded];
  if (chars.length >= 3) {
    const grams = [...new Set(Array.from({ length: chars.length - 2 }, (_, i) => chars.slice(i, i + 3).join("")))];
    const step = Math.max(1, grams.length / LOOKED_UP);
    const sampled = grams.filter((_, i) => i % Math.ceil(step) === 0).slice(0, LOOKED_UP);
    const rows = rowsHolding(sql, sampled);
    const rarest = [...rows].sort((a, b) => a[1] - b[1]);
    if (rarest[0]![1] === 0) return NOTHING;
    if (rarest[0]![1] > NARROW_ROWS) return null;
    return rarest
      .slice(0, ANDED)
      .map(([g]) => quoted(g))
      .join(" AND ");
  }
  if (chars.length === 0) return null;
  // The trigrams that start with the term, read from the index's own vocabulary.
  const grams = sql
    .exec<{ term: string; doc: number }>(
      "SELECT term, doc FROM items_fts_vocab WHERE term >= ?1 AND term < ?1 || char(1114111) LIMIT ?2",
      folded,
      MAX_PREFIXED + 1,
    )
    .toArray();
  if (grams.length > MAX_PREFIXED || grams.reduce((n, g) => n + g.doc, 0) > NARROW_ROWS) return null;
  return grams.length ? grams.map((g) => quoted(g.term)).join(" OR ") : NOTHING;
}
