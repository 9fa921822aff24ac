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
