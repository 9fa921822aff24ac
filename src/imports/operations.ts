/**
 * Imports (a collection's CSV or JSON file, a whole site's export) as operations of the OpenAPI
 * document. The upload is parsed by the front Worker (src/imports/routes.ts); the rest is served by
 * the site object (actors/site/imports/routes.ts).
 */
import { z } from "zod";
import { COLUMN_USES, IMPORT_LIMITS, IMPORT_STATES } from "../contract/imports";
import { fieldSchema } from "../contract/fields";
import { operation, type Operation, type Param } from "../openapi/registry";
import { P } from "../openapi/params";
import { withSiteId } from "../dashboard/operations";

const TAG = "Import";
const B = "/sites/{siteId}/imports";
const importId: Param = { name: "importId", in: "path", description: "The import's id (`imp_…`).", schema: z.string(), required: true };
const json = (description: string, schema: z.ZodType) => ({ description, schema, headers: "json" }) as const;

const Mapping = z.strictObject({
  column: z.string().describe("The column's name, as in the file's header."),
  use: z
    .enum(COLUMN_USES as [string, ...string[]])
    .describe(
      "`field`: fills an existing field; `new`: creates the field `create` when the import starts; `ignore`; `slug`, `draft`, `archived` (true: the row is skipped), `publishedOn`; `locale`: the row's locale (a row in a secondary locale is that item's translation: its localized fields and slug, the other cells are ignored); `itemId`: rows with the same value are one item in several locales (Webflow's `Item ID`).",
    ),
  field: z.string().optional().describe("`field` and `new`: the field's key."),
  create: fieldSchema.optional().describe("`new`: the field to add to the collection."),
  locales: z
    .record(z.string(), z.string())
    .optional()
    .describe(
      "`locale`: the site's locale code for each value of the column that is not a code itself (Webflow's `Locale ID` holds an id per locale). Proposed from the file's values: a site locale's code is itself; the others, in the order the file first holds them, take the primary, then the secondaries in the site's order; a value left over is an empty string (not chosen: its rows fail the dry run).",
    ),
  note: z.string().optional().describe("Why the service proposed this."),
});
const Problem = z.strictObject({ column: z.string(), value: z.string(), reason: z.string() });
const Import = z.strictObject({
  id: z.string(),
  kind: z.enum(["csv", "json", "site"]),
  collection: z.string().nullable(),
  fileName: z.string(),
  fileBytes: z.int(),
  delimiter: z.string(),
  header: z.array(z.string()),
  sample: z.array(z.array(z.string())).describe("The first rows, as cells."),
  mapping: z.array(Mapping),
  state: z.enum(IMPORT_STATES as [string, ...string[]]),
  planned: z.strictObject({ create: z.int(), update: z.int(), skip: z.int(), error: z.int() }).describe("The dry run's forecast."),
  done: z.strictObject({ created: z.int(), updated: z.int(), skipped: z.int(), failed: z.int() }).describe("What the import did."),
  translations: z
    .strictObject({
      planned: z.strictObject({ create: z.int(), update: z.int(), skip: z.int(), error: z.int() }),
      done: z.strictObject({ created: z.int(), updated: z.int(), skipped: z.int(), failed: z.int() }),
    })
    .optional()
    .describe("Of `planned` and `done`, the rows that are translations (rows in a secondary locale); absent when none are."),
  progress: z.strictObject({ pass: z.enum(["check", "write", "link"]).nullable(), rows: z.int(), rowsTotal: z.int() }),
  failure: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});
const one = z.strictObject({ import: Import });
const Row = z.strictObject({
  row: z.int().describe("1 = the first row after the header."),
  line: z.int().describe("The line of the file it starts on."),
  slug: z.string().nullable().describe("The item's slug; for a translation row, its slug in `locale`."),
  locale: z.string().nullable().describe("A translation row's secondary locale; null for a row of the primary locale."),
  planned: z.enum(["create", "update", "skip", "error"]).nullable(),
  done: z.enum(["created", "updated", "skipped", "failed"]).nullable(),
  itemId: z.string().nullable(),
  problems: z.array(Problem).describe("Why the row fails (empty for a row written)."),
  notes: z.array(Problem).describe("What happened besides the outcome of a row written: an image kept as a link, and why."),
});
const limits = `At most ${IMPORT_LIMITS.bytes / 1024 / 1024} MB (JSON files of a collection: ${IMPORT_LIMITS.jsonBytes / 1024 / 1024} MB), ${IMPORT_LIMITS.rows} rows, ${IMPORT_LIMITS.columns} columns, ${IMPORT_LIMITS.recordBytes / 1024 / 1024} MB per record. A site keeps at most ${IMPORT_LIMITS.keptImports} imports (409 \`conflict\`, \`details.limit: "imports"\`) and ${IMPORT_LIMITS.keptBytes / 1024 / 1024} MB of their files together (413, \`details.limit: "importBytes"\`) until they are deleted or pruned ${IMPORT_LIMITS.keepDays} days after they end.`;

const ops: Operation[] = [
  operation({
    id: "createImport",
    method: "post",
    path: "/sites/{siteId}/collections/{slug}/imports",
    tag: TAG,
    summary: "Upload a CSV or JSON file to import into a collection",
    description: `The raw file as the body (\`?name=\` its file name). CSV: RFC 4180 (quoted fields, newlines inside quotes, a BOM), separated by \`,\`, \`;\` or tab (read from the header line), UTF-8; Webflow's CMS export imports as it is. JSON: an array of items (or \`{items: […]}\`): Webflow's API shape (\`fieldData\`), this API's (\`slug\`, \`status\`, \`data\`) or flat objects. Answers the import with the proposed mapping and the first rows; nothing is written to the collection until a dry run (setImportMapping) and startImport. ${limits}`,
    auth: "siteKey",
    params: [P.slug, { name: "name", in: "query", description: "The file's name (shown in the list of imports).", schema: z.string() }],
    rawBody: { media: ["text/csv", "application/json"], description: limits },
    responses: { 201: json("Uploaded; the mapping is proposed.", one) },
    errors: ["bad_request", "not_found", "conflict", "payload_too_large", "request_timeout"],
  }),
  operation({
    id: "createSiteImport",
    method: "post",
    path: B,
    tag: TAG,
    summary: "Upload a site export (export.json) into a new, empty site",
    description: `The file GET /sites/{siteId}/export.json gives, unchanged. Collections, media and items keep their slugs and ids, items their publish state and times, so every public list and item answers as in the exported site. Only into a site without collections (409). The dry run starts at once; then startImport. ${limits}`,
    auth: "siteKey",
    params: [{ name: "name", in: "query", description: "The file's name.", schema: z.string() }],
    rawBody: { media: ["application/json"], description: limits },
    responses: { 201: json("Uploaded; the dry run is running.", one) },
    errors: ["bad_request", "not_found", "conflict", "payload_too_large", "request_timeout"],
  }),
  operation({
    id: "listImports",
    method: "get",
    path: B,
    tag: TAG,
    summary: "The site's imports, newest first (the last 50)",
    auth: "siteKey",
    responses: { 200: json("The imports.", z.strictObject({ imports: z.array(Import) })) },
    errors: ["not_found"],
  }),
  operation({
    id: "getImport",
    method: "get",
    path: `${B}/{importId}`,
    tag: TAG,
    summary: "One import: its state, progress and counts",
    description: "Poll it while the import runs: the progress is kept by the site, so a reload or a second tab shows the same.",
    auth: "siteKey",
    params: [importId],
    responses: { 200: json("The import.", one) },
    errors: ["not_found"],
  }),
  operation({
    id: "setImportMapping",
    method: "put",
    path: `${B}/{importId}/mapping`,
    tag: TAG,
    summary: "Confirm the mapping and run the dry run",
    description:
      "Each column to a field, a new field (needs collections.manage), a system value or nothing; columns left out are ignored. The dry run plans every row (create, update by slug, skip, error with reasons) and writes nothing else. Allowed before the import starts.",
    auth: "siteKey",
    params: [importId],
    body: z.strictObject({ columns: z.array(Mapping) }),
    responses: { 202: json("The dry run is running.", one) },
    errors: ["bad_request", "not_found", "conflict"],
  }),
  operation({
    id: "startImport",
    method: "post",
    path: `${B}/{importId}/start`,
    tag: TAG,
    summary: "Start the import after its dry run",
    description:
      "Adds the new fields, then writes the rows in slices on the site's alarm (reads and writes keep being served). Each row is written whole or not at all; references between rows are set once every row exists. One running import per site (409).",
    auth: "siteKey",
    params: [importId],
    responses: { 202: json("Started.", one) },
    errors: ["not_found", "conflict"],
  }),
  operation({
    id: "cancelImport",
    method: "post",
    path: `${B}/{importId}/cancel`,
    tag: TAG,
    summary: "Cancel an import",
    description: "Rows written stay (each whole); items still waiting for their references are removed. 409 once it has ended.",
    auth: "siteKey",
    params: [importId],
    responses: { 200: json("Cancelled, or cancelling.", one) },
    errors: ["not_found", "conflict"],
  }),
  operation({
    id: "listImportRows",
    method: "get",
    path: `${B}/{importId}/rows`,
    tag: TAG,
    summary: "The rows of an import with their outcome and problems",
    auth: "siteKey",
    params: [
      importId,
      {
        name: "outcome",
        in: "query",
        description:
          "Only rows planned (create, update, skip, error) or done (created, updated, skipped, failed) so; `noted`: rows written with notes.",
        schema: z.string(),
      },
      { name: "after", in: "query", description: "The previous page's `next`.", schema: z.int() },
      { name: "limit", in: "query", description: "1 to 200 (50).", schema: z.int() },
    ],
    responses: { 200: json("A page of rows.", z.strictObject({ rows: z.array(Row), next: z.int().nullable() })) },
    errors: ["bad_request", "not_found"],
  }),
  operation({
    id: "getImportReport",
    method: "get",
    path: `${B}/{importId}/report.csv`,
    tag: TAG,
    summary: "The import's report as CSV",
    description:
      "`row, line, slug, outcome, column, value, reason`: one line per problem or note (a row without either: one line). Cells a spreadsheet would run as formulas start with `'`.",
    auth: "siteKey",
    params: [importId],
    responses: { 200: { description: "The report.", media: ["text/csv"], headers: "json" } },
    errors: ["not_found"],
  }),
  operation({
    id: "deleteImport",
    method: "delete",
    path: `${B}/{importId}`,
    tag: TAG,
    summary: "Delete an import's file and report (never the items it wrote)",
    auth: "siteKey",
    params: [importId],
    responses: { 200: json("Deleted.", z.strictObject({ deleted: z.string() })) },
    errors: ["not_found", "conflict"],
  }),
];

export const importOperations: Operation[] = ops.map(withSiteId);
