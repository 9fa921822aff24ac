/**
 * How the service writes CSV (a collection's export, an import's report), so that its own import
 * and any RFC 4180 reader get each cell back whole.
 */

/**
 * csv-stringify's options for every CSV the service writes: CRLF line ends (Excel's), and a cell
 * holding a lone LF or CR quoted as well. With `record_delimiter` set, csv-stringify quotes only
 * cells holding that delimiter itself, so `First line\nsecond line` was written bare and read back
 * as two records. Commas and double quotes are quoted (quotes doubled) by default.
 */
export const CSV_WRITE = { record_delimiter: "\r\n", quote_record_delimiter: true } as const;

/**
 * A cell a spreadsheet would run as a formula (OWASP "CSV injection": one starting with `=`, `+`,
 * `-`, `@`, a tab or a CR) is written behind a `'`, which Excel and its kin take as "text" and do
 * not show. A cell that already starts with `'`s before one of those characters gets one more, so
 * `unescapeFormula` can take exactly one away and a genuine leading `'` survives the round trip.
 */
const RUNS_AS_FORMULA = /^'*[=+\-@\t\r]/;
/** What `escapeFormula` wrote: one `'` or more before a formula's first character. */
const ESCAPED_FORMULA = /^'+[=+\-@\t\r]/;

export const escapeFormula = (cell: string): string => (RUNS_AS_FORMULA.test(cell) ? `'${cell}` : cell);

/** The cell as it was before `escapeFormula`: the collection CSV import reads every cell through it. */
export const unescapeFormula = (cell: string): string => (ESCAPED_FORMULA.test(cell) ? cell.slice(1) : cell);
