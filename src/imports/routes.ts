/**
 * Import uploads (POST /sites/:siteId/collections/:slug/imports and POST /sites/:siteId/imports).
 * The front Worker reads and parses the file itself, a record at a time, and hands the site
 * object batches of parsed rows (Site.importUpload), so the object never waits on a client's
 * upload and never parses: it stages each batch in one transaction and runs the import later on
 * its alarm. CSV is parsed by csv-parse (RFC 4180: quoted fields, embedded newlines, a BOM, `,`
 * or `;` or tab, sniffed from the header line), each cell without the `'` the collection export
 * puts before a formula-looking one (unescapeFormula); a collection's JSON file (an array of items) is
 * read whole and flattened into the same columns; a site export is read line by line (it is
 * written one item per line).
 */
import { Buffer } from "node:buffer";
import { parse as csvParse } from "csv-parse/stream";
import { unescapeFormula } from "../contract/csv";
import { ApiError } from "../contract/errors";
import { IMPORT_LIMITS, type ImportCall, type StagedRow } from "../contract/imports";
import { unlessRefused } from "../contract/refusal";
import { json, tooLarge } from "../http/json";
import { readCapped } from "../http/read-capped";
import { siteStub } from "../stubs";
import { siteWriteCaller } from "../identity/site-caller";

type Call = (call: ImportCall) => Promise<unknown>;

/** Rows go to the site object in batches of at most this many rows or bytes. */
const BATCH_ROWS = 500;
const BATCH_BYTES = 512 * 1024;
/** How much of the file's start is read to find the header line (and check it is UTF-8). */
const SNIFF_BYTES = 64 * 1024;

export async function uploadImport(request: Request, env: Env, siteId: string | undefined, collection: string | null): Promise<Response> {
  const { id, auth } = await siteWriteCaller(request, env, siteId);
  const url = new URL(request.url);
  const stub = siteStub(env, id);
  const call: Call = async (c) => {
    return unlessRefused((await stub.importUpload(auth, url.pathname, c)) as unknown);
  };
  const fileName = (url.searchParams.get("name") ?? "").slice(0, 200) || (collection ? `${collection}.csv` : "site-export.json");
  const type = request.headers.get("content-type") ?? "";
  const kind = collection === null ? "site" : /json/i.test(type) || /\.json$/i.test(fileName) ? "json" : "csv";
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  const max = kind === "json" ? IMPORT_LIMITS.jsonBytes : IMPORT_LIMITS.bytes;
  if (Number.isFinite(declared) && declared > max) throw tooLarge(max);
  if (!request.body || declared === 0) throw new ApiError("bad_request", "The file is empty (0 bytes).");
  // The declared length lets the site refuse a file it has no room for before its first row.
  const stager = new Stager(call, Number.isFinite(declared) ? declared : 0);
  try {
    let bytes: number;
    if (kind === "csv") bytes = await readCsv(request.body, stager, { collection, fileName });
    else if (kind === "json") bytes = await readJson(request.body, stager, { collection, fileName });
    else bytes = await readSiteExport(request.body, stager, fileName);
    await stager.flush();
    const answer = await call({ op: "finish", id: stager.id(), fileBytes: bytes });
    return json(answer, 201);
  } catch (err) {
    if (stager.begun) await call({ op: "abort", id: stager.id() }).catch(() => undefined);
    throw err;
  }
}

/** Parsed rows, numbered from 1, sent to the site object a batch at a time. */
class Stager {
  #id: string | null = null;
  #rows: StagedRow[] = [];
  #bytes = 0;
  #next = 1;
  constructor(
    private readonly call: Call,
    private readonly declaredBytes: number,
  ) {}
  get begun(): boolean {
    return this.#id !== null;
  }
  id(): string {
    return this.#id!;
  }
  async begin(c: Extract<ImportCall, { op: "begin" }>): Promise<void> {
    this.#id = ((await this.call({ ...c, fileBytes: this.declaredBytes })) as { id: string }).id;
  }
  async push(row: StagedRow): Promise<void> {
    if (this.#next + this.#rows.length > IMPORT_LIMITS.rows)
      throw new ApiError("payload_too_large", `The file has more than ${IMPORT_LIMITS.rows} rows; split it into smaller files.`, {
        limit: IMPORT_LIMITS.rows,
      });
    this.#rows.push(row);
    this.#bytes += row.cells.reduce((n, c) => n + c.length, 0);
    if (this.#rows.length >= BATCH_ROWS || this.#bytes >= BATCH_BYTES) await this.flush();
  }
  async flush(): Promise<void> {
    if (this.#rows.length === 0) return;
    const rows = this.#rows;
    this.#rows = [];
    this.#bytes = 0;
    await this.call({ op: "rows", id: this.id(), first: this.#next, rows });
    this.#next += rows.length;
  }
}

/** Reads the body's first bytes (up to `want`), returning them and the reader for the rest. */
async function readStart(
  body: ReadableStream<Uint8Array>,
  want: number,
): Promise<{ head: Uint8Array; reader: ReadableStreamDefaultReader<Uint8Array>; done: boolean }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let done = false;
  while (size < want) {
    const r = await reader.read();
    if (r.done) {
      done = true;
      break;
    }
    chunks.push(r.value);
    size += r.value.byteLength;
  }
  const head = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    head.set(c, at);
    at += c.byteLength;
  }
  return { head, reader, done };
}

/** The first line's text (outside quotes), decoded strictly: a file that is not UTF-8 is refused in words. */
function headerLine(head: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(head, { stream: true });
  } catch {
    throw new ApiError(
      "bad_request",
      'The file is not UTF-8 text. Save it as "CSV UTF-8" (Excel) or export it as UTF-8, then upload it again.',
    );
  }
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if ((ch === "\n" || ch === "\r") && !quoted) return text.slice(0, i);
  }
  return text;
}

/** The separator the header line uses most outside quotes: `,`, `;` or tab. */
export function sniffDelimiter(line: string): string {
  const n: Record<string, number> = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch in n) n[ch]!++;
  }
  return n[";"]! > n[","]! && n[";"]! >= n["\t"]! ? ";" : n["\t"]! > n[","]! ? "\t" : ",";
}

type CsvRecord = { record: string[]; info: { lines: number; empty_lines: number } };

async function readCsv(
  body: ReadableStream<Uint8Array>,
  stager: Stager,
  file: { collection: string | null; fileName: string },
): Promise<number> {
  const { head, reader, done } = await readStart(body, SNIFF_BYTES);
  if (head.byteLength === 0) throw new ApiError("bad_request", "The file is empty (0 bytes).");
  const delimiter = sniffDelimiter(headerLine(head).replace(/^\ufeff/, ""));
  const parser = csvParse({
    bom: true,
    delimiter,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: IMPORT_LIMITS.recordBytes,
  });
  const writer = parser.writable.getWriter();
  let bytes = head.byteLength;
  // The body is fed to the parser while its records are read; a failure on either side ends both.
  const pump = (async () => {
    await writer.write(Buffer.from(head));
    if (!done)
      for (;;) {
        const r = await reader.read();
        if (r.done) break;
        bytes += r.value.byteLength;
        if (bytes > IMPORT_LIMITS.bytes) throw tooLarge(IMPORT_LIMITS.bytes);
        await writer.write(Buffer.from(r.value));
      }
    await writer.close();
  })();
  pump.catch(async (err: unknown) => {
    await writer.abort(err).catch(() => undefined);
  });
  const records = parser.readable.getReader() as ReadableStreamDefaultReader<CsvRecord>;
  let header: string[] | null = null;
  let lastLine = 0;
  let emptyLines = 0;
  try {
    for (;;) {
      const r = await records.read();
      if (r.done) break;
      const { record, info } = r.value;
      // csv-parse's own line count takes a CRLF inside quotes for two lines: count the record's breaks instead.
      const line = lastLine + 1 + (info.empty_lines - emptyLines);
      emptyLines = info.empty_lines;
      lastLine = line + record.reduce((n, cell) => n + (cell.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
      if (!header) {
        header = record.map((h) => unescapeFormula(h).trim());
        await stager.begin({
          op: "begin",
          kind: "csv",
          collection: file.collection,
          fileName: file.fileName,
          fileBytes: 0,
          delimiter,
          header,
        });
        continue;
      }
      // Cells the collection export wrote behind a `'` (formula-looking ones) come back as they were.
      await stager.push({ line, cells: record.map(unescapeFormula) });
    }
    await pump;
  } catch (err) {
    await reader.cancel().catch(() => undefined);
    if (err instanceof ApiError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new ApiError("bad_request", `The file could not be read as CSV: ${message}`, { line: lastLine + 1 });
  }
  if (!header) throw new ApiError("bad_request", "The file has no header row: its first line must name the columns.");
  return bytes;
}

// ---- A collection's JSON file -------------------------------------------------------------------

/** A JSON value as a cell: text as is, lists `; `-joined (as Webflow writes multi-references), media by URL. */
function cellOf(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return v.map(cellOf).join("; ");
  const o = v as Record<string, unknown>;
  if (typeof o.url === "string") return o.url;
  if (typeof o.slug === "string") return o.slug;
  return JSON.stringify(v);
}

/**
 * One item of a JSON file as named cells: Webflow's API shape (`fieldData`, `isDraft`,
 * `isArchived`, `lastPublished`), this API's shape (`slug`, `status`, `publishedAt`, `data`), or a
 * plain object whose keys are the columns.
 */
function flatten(item: unknown, i: number): Map<string, string> {
  if (!item || typeof item !== "object" || Array.isArray(item)) throw new ApiError("bad_request", `items[${i}] is not an object.`);
  const o = item as Record<string, unknown>;
  const out = new Map<string, string>();
  if (o.fieldData && typeof o.fieldData === "object") {
    const fd = o.fieldData as Record<string, unknown>;
    out.set("Name", cellOf(fd.name));
    out.set("Slug", cellOf(fd.slug));
    if ("isDraft" in o) out.set("Draft", cellOf(o.isDraft));
    if ("isArchived" in o) out.set("Archived", cellOf(o.isArchived));
    if ("lastPublished" in o) out.set("Published On", cellOf(o.lastPublished));
    for (const [k, v] of Object.entries(fd)) if (k !== "name" && k !== "slug") out.set(k, cellOf(v));
    return out;
  }
  if (o.data && typeof o.data === "object" && !Array.isArray(o.data)) {
    out.set("Slug", cellOf(o.slug));
    if (typeof o.status === "string") out.set("Draft", String(o.status !== "published"));
    if ("publishedAt" in o) out.set("Published On", cellOf(o.publishedAt));
    for (const [k, v] of Object.entries(o.data as Record<string, unknown>)) out.set(k, cellOf(v));
    return out;
  }
  for (const [k, v] of Object.entries(o)) out.set(k, cellOf(v));
  return out;
}

async function readJson(
  body: ReadableStream<Uint8Array>,
  stager: Stager,
  file: { collection: string | null; fileName: string },
): Promise<number> {
  const bytes = await readCapped(body, IMPORT_LIMITS.jsonBytes, () => tooLarge(IMPORT_LIMITS.jsonBytes));
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch (err) {
    throw new ApiError("bad_request", `The file is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const items = Array.isArray(doc) ? doc : (doc as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) throw new ApiError("bad_request", "A JSON import is an array of items, or an object with an `items` array.");
  if (items.length > IMPORT_LIMITS.rows)
    throw new ApiError("payload_too_large", `The file has more than ${IMPORT_LIMITS.rows} items; split it into smaller files.`, {
      limit: IMPORT_LIMITS.rows,
    });
  const flat = items.map(flatten);
  const header: string[] = [];
  for (const m of flat) for (const k of m.keys()) if (!header.includes(k)) header.push(k);
  await stager.begin({
    op: "begin",
    kind: "json",
    collection: file.collection,
    fileName: file.fileName,
    fileBytes: 0,
    delimiter: "",
    header,
  });
  for (let i = 0; i < flat.length; i++) await stager.push({ line: i + 1, cells: header.map((h) => flat[i]!.get(h) ?? "") });
  return bytes.byteLength;
}

// ---- A site export --------------------------------------------------------------------------------

const ITEMS_LINE = ' "items": [';

/** GET /sites/{id}/export.json as written: its head, then one item per line (a line is one staged row). */
async function readSiteExport(body: ReadableStream<Uint8Array>, stager: Stager, fileName: string): Promise<number> {
  const reader = body.pipeThrough(new TextDecoderStream("utf-8", { fatal: true, ignoreBOM: false })).getReader();
  let bytes = 0;
  let buffered = "";
  let lineNo = 0;
  const headLines: string[] = [];
  let inItems = false;
  let ended = false;
  const take = async (line: string) => {
    lineNo++;
    if (ended) return;
    if (!inItems) {
      if (line === ITEMS_LINE) {
        inItems = true;
        const text = `${headLines.join("\n").replace(/,\s*$/, "")}\n}`;
        let head: unknown;
        try {
          head = JSON.parse(text);
        } catch {
          throw new ApiError(
            "bad_request",
            'Not a site export: its head (before "items") is not JSON. Upload the file GET /sites/{id}/export.json gives, unchanged.',
          );
        }
        await stager.begin({ op: "begin", kind: "site", collection: null, fileName, fileBytes: 0, delimiter: "", header: [], head });
        return;
      }
      headLines.push(line);
      if (bytes > IMPORT_LIMITS.jsonBytes) throw new ApiError("bad_request", 'Not a site export: no "items" list near its start.');
      return;
    }
    if (line.trim() === "]" || line.trim() === "") {
      if (line.trim() === "]") ended = true;
      return;
    }
    await stager.push({ line: lineNo, cells: [line] });
  };
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      bytes += r.value.length;
      if (bytes > IMPORT_LIMITS.bytes) throw tooLarge(IMPORT_LIMITS.bytes);
      buffered += r.value;
      let start = 0;
      for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n", start)) {
        const line = buffered.slice(start, nl).replace(/\r$/, "");
        start = nl + 1;
        if (line.length > IMPORT_LIMITS.recordBytes && inItems)
          throw new ApiError("bad_request", `Line ${lineNo + 1} is longer than ${IMPORT_LIMITS.recordBytes} bytes.`);
        await take(line);
      }
      buffered = buffered.slice(start);
    }
    if (buffered) await take(buffered);
  } catch (err) {
    await reader.cancel().catch(() => undefined);
    if (err instanceof ApiError) throw err;
    throw new ApiError("bad_request", `The file is not UTF-8 text: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!inItems)
    throw new ApiError("bad_request", 'Not a site export: no "items" list. Upload the file GET /sites/{id}/export.json gives, unchanged.');
  return bytes;
}
