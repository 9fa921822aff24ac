/**
 * Imports: the limits, the mapping a person confirms, the import as the API shows it,
 * and the call protocol between the front Worker's upload route (src/imports/routes.ts, which
 * parses the file) and the site object (actors/site/imports/), which stages the parsed rows and
 * runs the import on its alarm. Both sides take these shapes from here.
 */
import type { Field } from "./fields";

export const IMPORT_LIMITS = {
  /** A CSV file or a site export (streamed, parsed a record at a time). */
  bytes: 256 * 1024 * 1024,
  /** A collection's JSON file is parsed whole in the front Worker. */
  jsonBytes: 20 * 1024 * 1024,
  rows: 100_000,
  columns: 200,
  /** One record (a runaway quote fails at once with its line, instead of reading the whole file). */
  recordBytes: 1024 * 1024,
  /** How long the upload may take to arrive. */
  uploadTotalMs: 10 * 60_000,
  /** Staged rows and reports are kept this long after an import ends, then pruned. */
  keepDays: 7,
  /** Imports one site keeps at once, in any state (actors/site/imports/room.ts). */
  keptImports: 10,
  /** Their files together (an upload counts as it is staged); two full-size files fit. */
  keptBytes: 512 * 1024 * 1024,
} as const;

/**
 * What a column becomes: an existing field, a new field (created when the import starts), a system
 * value, or nothing. `locale` says which of the site's locales a row is in (a row in a secondary is
 * a translation); `itemId` names the item a row belongs to, so rows in several locales are one item.
 */
export type ColumnUse = "field" | "new" | "ignore" | "slug" | "draft" | "archived" | "publishedOn" | "locale" | "itemId";
export const COLUMN_USES: readonly ColumnUse[] = ["field", "new", "ignore", "slug", "draft", "archived", "publishedOn", "locale", "itemId"];

export interface ColumnMapping {
  column: string;
  use: ColumnUse;
  /** `field`: the existing field's key. */
  field?: string;
  /** `new`: the field to add to the collection. */
  create?: Field;
  /**
   * `locale`: the site's locale code for each value of the column that is not one itself (Webflow's
   * `Locale ID` holds an opaque id per locale). Proposed from the file's values.
   */
  locales?: Record<string, string>;
  /** Why the service proposed this (shown beside the choice). */
  note?: string;
}

export type ImportState = "uploaded" | "checking" | "checked" | "importing" | "linking" | "cancelling" | "done" | "failed" | "cancelled";
export const IMPORT_STATES: readonly ImportState[] = [
  "uploaded",
  "checking",
  "checked",
  "importing",
  "linking",
  "cancelling",
  "done",
  "failed",
  "cancelled",
];
/** States in which the alarm is working on the import. */
export const RUNNING_STATES: readonly ImportState[] = ["checking", "importing", "linking", "cancelling"];

export type PlannedOutcome = "create" | "update" | "skip" | "error";
export type DoneOutcome = "created" | "updated" | "skipped" | "failed";

export interface ImportProblem {
  column: string;
  value: string;
  reason: string;
}

export interface ImportRowView {
  row: number;
  line: number;
  slug: string | null;
  /** The secondary locale a translation row is in; null for a row of the primary's (the item itself). */
  locale: string | null;
  planned: PlannedOutcome | null;
  done: DoneOutcome | null;
  itemId: string | null;
  problems: ImportProblem[];
  /** What happened besides the outcome of a row written (an image kept as a link, and why). */
  notes: ImportProblem[];
}

export interface ImportView {
  id: string;
  kind: "csv" | "json" | "site";
  collection: string | null;
  fileName: string;
  fileBytes: number;
  delimiter: string;
  header: string[];
  /** The first rows of the file, as cells (for the mapping screen). */
  sample: string[][];
  mapping: ColumnMapping[];
  state: ImportState;
  /** The dry run's forecast (after `checked`). */
  planned: { create: number; update: number; skip: number; error: number };
  /** What the import did (after `importing`). */
  done: { created: number; updated: number; skipped: number; failed: number };
  /** Of `planned` and `done`, the rows that are translations (in a secondary locale); absent when none are. */
  translations?: {
    planned: { create: number; update: number; skip: number; error: number };
    done: { created: number; updated: number; skipped: number; failed: number };
  };
  progress: { pass: "check" | "write" | "link" | null; rows: number; rowsTotal: number };
  failure: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

/** One parsed record of the file: its first line in the file and its cells. */
export interface StagedRow {
  line: number;
  cells: string[];
}

/** The front Worker's calls while a file is parsed (RPC, never reachable by a client). */
export type ImportCall =
  | {
      op: "begin";
      kind: "csv" | "json" | "site";
      /** Null for a site import. */
      collection: string | null;
      fileName: string;
      /** The upload's declared length (Content-Length), 0 when unknown: checked against the site's room. */
      fileBytes: number;
      delimiter: string;
      header: string[];
      /** A site export's head (collections, media, seo), without its items. */
      head?: unknown;
    }
  | { op: "rows"; id: string; first: number; rows: StagedRow[] }
  | { op: "finish"; id: string; fileBytes: number }
  | { op: "abort"; id: string };

/** A refusal answered as data across RPC: the same shape as the media calls'. */
export type ImportAnswer = { import: ImportView } | { id: string } | { done: true };
