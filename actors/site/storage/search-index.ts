/**
 * The substring index of `search` (site migration 30): an FTS5 table with the trigram tokenizer
 * over each item's search text, so a search reads the items holding the term's trigrams instead
 * of every item of the collection. The index only narrows: each candidate is still checked with
 * `instr`, so answers and totals are exactly those of a scan. The table's one owner: the
 * migration's triggers keep it in step with `items` for every row the backfill has passed, and
 * the backfill (a job on the alarm, a slice of rows at a time) brings existing sites in.
 */

/** The backfill's mark once every row is indexed: the triggers then index every row. */
const COMPLETE = Number.MAX_SAFE_INTEGER;
/** Rows indexed per slice of the backfill (a few milliseconds each). */
const SLICE = 2_000;
/** Trigrams of a term ANDed into one query; candidates are checked in full anyway. */
const MAX_TRIGRAMS = 8;
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
    sql.exec(
      "INSERT INTO items_fts (rowid, body) SELECT seq, search_text || char(31, 31) FROM items WHERE seq > ? AND seq <= ? ORDER BY seq",
      from,
      last,
    );
    sql.exec("UPDATE search_index_state SET built_to = ? WHERE id = 1", last);
    return true;
  });
}

const quoted = (gram: string) => `"${gram.replaceAll('"', '""')}"`;

/**
 * The FTS5 query that finds every item whose search text may hold `folded` (already folded as the
 * stored text is), or null when the index cannot narrow it: not built yet, or a one-character term
 * that starts too many trigrams. Each stored text ends in two separators (U+001F), so an occurrence of
 * a 1–2 character term is always the start of some trigram.
 */
export function searchMatch(sql: SqlStorage, folded: string): string | null {
  if (!searchIndexReady(sql)) return null;
  const chars = [...folded];
  if (chars.length >= 3) {
    const grams = Array.from({ length: chars.length - 2 }, (_, i) => chars.slice(i, i + 3).join(""));
    // Spread over the term (its first and last included): more of them narrows little further.
    const step = Math.max(1, (grams.length - 1) / (MAX_TRIGRAMS - 1));
    const picked = new Set<string>();
    for (let i = 0; i < grams.length; i += step) picked.add(grams[Math.round(i)]!);
    picked.add(grams[grams.length - 1]!);
    return [...picked].map(quoted).join(" AND ");
  }
  if (chars.length === 0) return null;
  // The trigrams that start with the term, read from the index's own vocabulary.
  const grams = sql
    .exec<{ term: string }>(
      "SELECT term FROM items_fts_vocab WHERE term >= ?1 AND term < ?1 || char(1114111) LIMIT ?2",
      folded,
      MAX_PREFIXED + 1,
    )
    .toArray()
    .map((r) => r.term);
  if (grams.length > MAX_PREFIXED) return null;
  // No trigram starts with it: no item holds it. A trigram of nothing matches nothing.
  return grams.length ? grams.map(quoted).join(" OR ") : quoted("\u001f\u001f\u001f");
}
