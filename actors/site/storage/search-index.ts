/**
 * The substring index of `search` (site migrations 30, 34 and 36): an FTS5 table with the
 * trigram tokenizer over each item's search text and slug, in two columns, with positions and no
 * case folding of its own. A term is matched as a phrase of its trigrams, which holds exactly
 * where `instr` over the (already folded) text would, so a search reads the items holding the
 * term instead of every item of the collection, and its totals are a scan's. The table's one
 * owner: the migration's triggers keep it in step with `items` for every row the backfill has
 * passed, and the backfill (a job on the alarm, a slice of rows at a time) brings existing sites in.
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
      "INSERT INTO items_fts (rowid, text, slug) SELECT seq, text, slug FROM items_search_source WHERE seq > ? AND seq <= ? ORDER BY seq",
      from,
      last,
    );
    sql.exec("UPDATE search_index_state SET built_to = ? WHERE id = 1", last);
    return true;
  });
}

const quoted = (gram: string) => `"${gram.replaceAll('"', '""')}"`;

/** How many items a term may be in (as the vocabulary counts them) for its hits to drive a read; past it, the list's own order is walked. */
const NARROW_ROWS = 5_000;
/** Trigrams of a term looked up in the vocabulary, for the rarest one's count. */
const LOOKED_UP = 64;

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

/** Where a search looks: the content API's indexed text, or the dashboard's with the slug too. */
export type SearchColumns = "text" | "text and slug";

export interface SearchMatch {
  /** The FTS5 query whose hits are exactly the items holding the term in those columns. */
  query: string;
  /**
   * Whether the hits are few enough (NARROW_ROWS) to drive the read, each looked up by seq;
   * otherwise the list's order is walked and each of its entries looked up among the hits.
   */
  narrow: boolean;
}

/**
 * The FTS5 query that finds exactly the items whose search text (and slug) holds `folded`
 * (already folded as the stored text is), or null when the index cannot answer: not built yet,
 * or a 1–2 character term that starts more than MAX_PREFIXED trigrams. Each stored value ends in
 * two separators (U+001F), so an occurrence of a 1–2 character term always starts some trigram.
 */
export function searchMatch(sql: SqlStorage, folded: string, columns: SearchColumns = "text"): SearchMatch | null {
  if (!searchIndexReady(sql)) return null;
  const within = (expr: string) => (columns === "text" ? `{text} : ${expr}` : expr);
  const chars = [...folded];
  if (chars.length >= 3) {
    const grams = [...new Set(Array.from({ length: chars.length - 2 }, (_, i) => chars.slice(i, i + 3).join("")))];
    const step = Math.ceil(Math.max(1, grams.length / LOOKED_UP));
    const rarest = Math.min(...rowsHolding(sql, grams.filter((_, i) => i % step === 0).slice(0, LOOKED_UP)).values());
    if (rarest === 0) return { query: NOTHING, narrow: true };
    // The term itself as a phrase: its trigrams one after another.
    return { query: within(quoted(folded)), narrow: rarest <= NARROW_ROWS };
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
  if (grams.length > MAX_PREFIXED) return null;
  if (grams.length === 0) return { query: NOTHING, narrow: true };
  return {
    query: within(`(${grams.map((g) => quoted(g.term)).join(" OR ")})`),
    narrow: grams.reduce((n, g) => n + g.doc, 0) <= NARROW_ROWS,
  };
}
