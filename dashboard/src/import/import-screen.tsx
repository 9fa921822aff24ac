/**
 * Import into a collection: choose a file (CSV or JSON), map its columns to fields, read the dry
 * run (what would be created, updated, skipped, and every row's problem in words), start, watch
 * the progress, read and download the report. Every step's state lives in the service (the
 * import's address is `#/<site>/import/<collection>/<importId>`), so a reload or a second tab
 * shows the same screen; the progress is polled once a second while the import runs.
 */
import { useEffect, useState } from "preact/hooks";
import { ApiFailure, call, client } from "../api";
import { sendFile } from "../send-file";
import { IMPORT_LIMITS } from "../../../src/contract/imports";
import { go, href } from "../router";
import { can, collections, inSite, site } from "../site-state";
import { Confirm, ErrorNotice, Field, Heading, Notice, type Submit, when } from "../ui";
import { useLoad } from "../use-load";
import { formatBytes } from "../media/upload";
import { TYPE_NAMES } from "../types";
import { fieldKeyOf } from "../slugify";
import type { components } from "../generated/api";
import { LocaleValues } from "./locale-values";

type ImportView = components["schemas"]["ListImportsResponse"]["imports"][number];
type Mapping = ImportView["mapping"][number];
type Row = components["schemas"]["ListImportRowsResponse"]["rows"][number];

/** Types a new field made from a column may have (references and options need more than a column gives). */
const NEW_TYPES = ["text", "richText", "number", "decimal", "boolean", "date", "link", "image", "gallery", "video"] as const;
const SYSTEM_USES: { use: Mapping["use"]; label: string }[] = [
  { use: "slug", label: "Slug (matches existing items)" },
  { use: "draft", label: "Draft flag (true: draft)" },
  { use: "publishedOn", label: "Published on (date)" },
  { use: "archived", label: "Archived flag (true: skip the row)" },
  { use: "locale", label: "Locale (a row in another language is a translation)" },
  { use: "itemId", label: "Item ID (ties an item's rows in each language)" },
];
const PASS_WORDS: Record<string, string> = { check: "Checking rows", write: "Writing items", link: "Linking references" };
const RUNNING = new Set(["checking", "importing", "linking", "cancelling"]);

export function ImportScreen(props: { collectionSlug: string; importId: string | null }) {
  const c = collections.value?.find((x) => x.slug === props.collectionSlug);
  if (!c) return <Notice kind="error">No collection “{props.collectionSlug}”.</Notice>;
  return props.importId ? (
    <ImportSteps collection={c.slug} name={c.name} id={props.importId} />
  ) : (
    <Upload collection={c.slug} name={c.name} />
  );
}

// ---- Step 1: the file -------------------------------------------------------------------------

function upload(collection: string, file: File, onProgress: (loaded: number, total: number) => void): Promise<ImportView> {
  const url = `/sites/${encodeURIComponent(site.value!.id)}/collections/${encodeURIComponent(collection)}/imports?name=${encodeURIComponent(file.name)}`;
  const type = /\.json$/i.test(file.name) ? "application/json" : "text/csv";
  return sendFile("POST", url, { "content-type": type }, file, onProgress).done.then(
    ({ status, body, error }) => {
      if (status === 201) return (body as { import: ImportView }).import;
      throw new ApiFailure(status, error ?? { code: "unknown", message: `The service answered ${status}. Try again.` });
    },
    (err: Error) => {
      throw new ApiFailure(0, { code: "network", message: err.message });
    },
  );
}

function Upload(props: { collection: string; name: string }) {
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState<{ loaded: number; total: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const earlier = useLoad(() => call(client.GET("/sites/{siteId}/imports", { params: { path: inSite() } })), []);
  const mine = (earlier.data?.imports ?? []).filter((i) => i.collection === props.collection);
  const submit = async (e: Submit) => {
    e.preventDefault();
    if (!file) return setError(new ApiFailure(400, { code: "bad_request", message: "Choose a CSV or JSON file first." }));
    setError(null);
    setSent({ loaded: 0, total: file.size });
    try {
      const imp = await upload(props.collection, file, (loaded, total) => setSent({ loaded, total }));
      go(site.value!.id, "import", props.collection, imp.id);
    } catch (err) {
      setError(err);
      setSent(null);
    }
  };
  return (
    <section>
      <Heading
        actions={
          <a class="button secondary" href={href(site.value!.id, "items", props.collection)}>
            Back to {props.name}
          </a>
        }
      >
        Import into {props.name}
      </Heading>
      <p>
        Upload a CSV file (a Webflow CMS export works as it is: columns such as Name, Slug, Draft and Published On are understood) or a JSON
        file with an array of items. Nothing is written until you have checked the dry run and pressed Import.
      </p>
      <form onSubmit={(e) => void submit(e)} class="card">
        <Field
          label="File to import (CSV or JSON)"
          hint={`UTF-8, separated by commas, semicolons or tabs; up to ${IMPORT_LIMITS.bytes / 1024 / 1024} MB and ${IMPORT_LIMITS.rows.toLocaleString("en")} rows.`}
        >
          {(id, describedBy) => (
            <input
              id={id}
              type="file"
              accept=".csv,.json,text/csv,application/json"
              aria-describedby={describedBy}
              onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
            />
          )}
        </Field>
        <ErrorNotice error={error} />
        {sent && (
          <p>
            <progress aria-label="Upload progress" max={sent.total || 1} value={sent.loaded} /> Uploading and reading the file:{" "}
            {formatBytes(sent.loaded)} of {formatBytes(sent.total)}
          </p>
        )}
        <button type="submit" disabled={sent !== null}>
          Upload and map columns
        </button>
      </form>
      {mine.length > 0 && (
        <>
          <h2>Earlier imports</h2>
          <ul>
            {mine.map((i) => (
              <li key={i.id}>
                <a href={href(site.value!.id, "import", props.collection, i.id)}>{i.fileName}</a> — {i.state}, {when(i.createdAt)}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

// ---- Steps 2–5: mapping, dry run, progress, report ------------------------------------------

function ImportSteps(props: { collection: string; name: string; id: string }) {
  const [imp, setImp] = useState<ImportView | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    call(client.GET("/sites/{siteId}/imports/{importId}", { params: { path: inSite({ importId: props.id }) } })).then(
      (r) => live && setImp(r.import),
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [props.id, tick]);
  // While the service works on it, the screen follows once a second (a reload picks up where it is).
  useEffect(() => {
    if (!imp || !RUNNING.has(imp.state)) return;
    const t = setTimeout(() => setTick((n) => n + 1), 1000);
    return () => clearTimeout(t);
  }, [imp, tick]);
  const refresh = (next: ImportView) => {
    setImp(next);
    setTick((n) => n + 1);
  };
  const back = (
    <a class="button secondary" href={href(site.value!.id, "items", props.collection)}>
      Back to {props.name}
    </a>
  );
  if (!imp) return error ? <ErrorNotice error={error} /> : <p role="status">Loading the import…</p>;
  const editable = imp.state === "uploaded" || imp.state === "checked";
  return (
    <section>
      <Heading actions={back}>Import {imp.fileName}</Heading>
      <p>
        {imp.progress.rowsTotal.toLocaleString()} rows, {formatBytes(imp.fileBytes)}, uploaded {when(imp.createdAt)}.
      </p>
      <ErrorNotice error={error} />
      {imp.failure && <Notice kind="error">{imp.failure} Try again with Import (the rows already written stay), or cancel.</Notice>}
      {editable && <MappingForm imp={imp} onDone={refresh} onError={setError} />}
      {imp.state === "checking" && <Progress imp={imp} />}
      {imp.state === "checked" && <DryRun imp={imp} onDone={refresh} onError={setError} />}
      {(imp.state === "importing" || imp.state === "linking" || imp.state === "cancelling") && (
        <Running imp={imp} onDone={refresh} onError={setError} />
      )}
      {(imp.state === "done" || imp.state === "cancelled" || imp.state === "failed") && <Report imp={imp} collection={props.collection} />}
    </section>
  );
}

function MappingForm(props: { imp: ImportView; onDone: (i: ImportView) => void; onError: (e: unknown) => void }) {
  const c = collections.value!.find((x) => x.slug === props.imp.collection)!;
  const [mapping, setMapping] = useState<Mapping[]>(props.imp.mapping);
  const [pending, setPending] = useState(false);
  const mayAddFields = can("collections.manage");
  const set = (i: number, m: Mapping) => setMapping((all) => all.map((x, j) => (j === i ? m : x)));
  const choose = (i: number, column: string, value: string) => {
    if (value.startsWith("field:")) return set(i, { column, use: "field", field: value.slice(6) });
    if (value === "new") {
      const key = fieldKeyOf(column) || "newField";
      return set(i, { column, use: "new", field: key, create: { key, type: "text", name: column } });
    }
    set(i, { column, use: value as Mapping["use"] });
  };
  const submit = async (e: Submit) => {
    e.preventDefault();
    setPending(true);
    props.onError(null);
    try {
      const columns = mapping.map(({ note: _note, ...m }) => m);
      const r = await call(
        client.PUT("/sites/{siteId}/imports/{importId}/mapping", {
          params: { path: inSite({ importId: props.imp.id }) },
          body: { columns },
        }),
      );
      props.onDone(r.import);
    } catch (err) {
      props.onError(err);
    } finally {
      setPending(false);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)}>
      <h2>Map the columns</h2>
      <p>
        Each column of the file fills a field, sets the item's slug, status or language, or is ignored. Columns no field is named after are
        ignored unless you choose otherwise.
      </p>
      <table class="mapping">
        <thead>
          <tr>
            <th scope="col">Column</th>
            <th scope="col">First values</th>
            <th scope="col">Use as</th>
          </tr>
        </thead>
        <tbody>
          {mapping.map((m, i) => {
            const value = m.use === "field" ? `field:${m.field}` : m.use;
            return (
              <tr key={m.column}>
                <th scope="row">{m.column}</th>
                <td class="sample">
                  {props.imp.sample
                    .slice(0, 3)
                    .map((r) => r[i] ?? "")
                    .filter((v) => v !== "")
                    .map((v) => (v.length > 60 ? `${v.slice(0, 60)}…` : v))
                    .join(" · ") || "—"}
                </td>
                <td>
                  <label class="visually-hidden" for={`use-${i}`}>
                    Use column {m.column} as
                  </label>
                  <select id={`use-${i}`} value={value} onChange={(e) => choose(i, m.column, e.currentTarget.value)}>
                    <option value="ignore">Ignore</option>
                    <optgroup label="Fields">
                      {c.fields.map((f) => (
                        <option key={f.key} value={`field:${f.key}`}>
                          {f.name ?? f.key} ({TYPE_NAMES[f.type] ?? f.type})
                        </option>
                      ))}
                    </optgroup>
                    <optgroup label="Item">
                      {SYSTEM_USES.map((s) => (
                        <option key={s.use} value={s.use}>
                          {s.label}
                        </option>
                      ))}
                    </optgroup>
                    {mayAddFields && <option value="new">New field…</option>}
                  </select>
                  {m.use === "new" && m.create && (
                    <div class="new-field">
                      <label for={`key-${i}`}>New field key for {m.column}</label>
                      <input
                        id={`key-${i}`}
                        value={m.create.key}
                        onInput={(e) =>
                          set(i, { ...m, field: e.currentTarget.value, create: { ...m.create!, key: e.currentTarget.value } })
                        }
                      />
                      <label for={`type-${i}`}>New field type for {m.column}</label>
                      <select
                        id={`type-${i}`}
                        value={m.create.type}
                        onChange={(e) =>
                          set(i, { ...m, create: { ...m.create!, type: e.currentTarget.value as (typeof NEW_TYPES)[number] } })
                        }
                      >
                        {NEW_TYPES.map((t) => (
                          <option key={t} value={t}>
                            {TYPE_NAMES[t] ?? t}
                          </option>
                        ))}
                      </select>
                    </div>
                  )}
                  {m.use === "locale" && <LocaleValues index={i} mapping={m} onChange={(next) => set(i, next)} />}
                  {m.note && <p class="hint">{m.note}</p>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <button type="submit" disabled={pending}>
        {props.imp.state === "checked" ? "Run the dry run again" : "Run the dry run"}
      </button>
    </form>
  );
}

function Progress(props: { imp: ImportView }) {
  const p = props.imp.progress;
  const words = PASS_WORDS[p.pass ?? ""] ?? "Working";
  return (
    <div class="card" role="status">
      <p>
        <label for="import-progress">
          {props.imp.state === "cancelling" ? "Cancelling" : words}: {p.rows.toLocaleString()} of {p.rowsTotal.toLocaleString()} rows
        </label>
      </p>
      <progress id="import-progress" max={p.rowsTotal || 1} value={p.rows} />
      <p class="hint">You can leave this page: the import goes on, and this page shows where it is when you come back.</p>
    </div>
  );
}

function ProblemTable(props: { rows: Row[]; caption: string; notes?: boolean }) {
  const lines = props.rows.flatMap((r) => {
    const listed = props.notes ? r.notes : r.problems;
    return (listed.length ? listed : [{ column: "", value: "", reason: "" }]).map((p, k) => ({ r, p, k }));
  });
  return (
    <table class="problems">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Row</th>
          <th scope="col">Line</th>
          <th scope="col">Slug</th>
          <th scope="col">Column</th>
          <th scope="col">Value</th>
          <th scope="col">{props.notes ? "Note" : "Problem"}</th>
        </tr>
      </thead>
      <tbody>
        {lines.map(({ r, p, k }) => (
          <tr key={`${r.row}-${k}`}>
            <td>{r.row}</td>
            <td>{r.line}</td>
            <td>{r.slug ?? "—"}</td>
            <td>{p.column}</td>
            <td>
              <code>{p.value}</code>
            </td>
            <td>{p.reason}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The first 200 rows of an import with an outcome (the screens' tables; the report CSV has all). */
const firstRows = (importId: string, outcome: "error" | "failed" | "noted") => () =>
  call(
    client.GET("/sites/{siteId}/imports/{importId}/rows", {
      params: { path: inSite({ importId }), query: { outcome, limit: 200 } },
    }),
  );

const reportHref = (imp: ImportView) => `/sites/${encodeURIComponent(site.value!.id)}/imports/${encodeURIComponent(imp.id)}/report.csv`;

function DryRun(props: { imp: ImportView; onDone: (i: ImportView) => void; onError: (e: unknown) => void }) {
  const errors = useLoad(firstRows(props.imp.id, "error"), [props.imp.id, props.imp.updatedAt]);
  const [pending, setPending] = useState(false);
  const n = props.imp.planned;
  const t = props.imp.translations?.planned;
  const begin = async () => {
    setPending(true);
    props.onError(null);
    try {
      props.onDone(
        (await call(client.POST("/sites/{siteId}/imports/{importId}/start", { params: { path: inSite({ importId: props.imp.id }) } })))
          .import,
      );
    } catch (err) {
      props.onError(err);
    } finally {
      setPending(false);
    }
  };
  return (
    <div>
      <h2>Dry run</h2>
      <p role="status">
        Nothing has been written yet. Importing would create <strong>{n.create}</strong>, update <strong>{n.update}</strong> and skip{" "}
        <strong>{n.skip}</strong> items; <strong>{n.error}</strong> {n.error === 1 ? "row has problems" : "rows have problems"} and would
        not be imported.
        {t &&
          ` Of these rows, ${t.create + t.update + t.skip} are translations: ${t.create} new, ${t.update} changed, ${t.skip} unchanged.`}
      </p>
      <ErrorNotice error={errors.error} />
      {n.error > 0 && errors.data && (
        <ProblemTable
          rows={errors.data.rows}
          caption={`Rows with problems${n.error > 200 ? " (the first 200; the report has all)" : ""}`}
        />
      )}
      <div class="actions">
        <button type="button" disabled={pending || n.create + n.update === 0} onClick={() => void begin()}>
          Import {(n.create + n.update).toLocaleString()} {n.create + n.update === 1 ? "row" : "rows"}
        </button>
        <a class="button secondary" href={reportHref(props.imp)} download>
          Download the dry run as CSV
        </a>
      </div>
      {n.error > 0 && <p class="hint">Fix the file and upload it again, or change the mapping above and run the dry run again.</p>}
    </div>
  );
}

function Running(props: { imp: ImportView; onDone: (i: ImportView) => void; onError: (e: unknown) => void }) {
  const [asking, setAsking] = useState(false);
  const cancel = async (yes: boolean) => {
    setAsking(false);
    if (!yes) return;
    try {
      props.onDone(
        (await call(client.POST("/sites/{siteId}/imports/{importId}/cancel", { params: { path: inSite({ importId: props.imp.id }) } })))
          .import,
      );
    } catch (err) {
      props.onError(err);
    }
  };
  return (
    <div>
      <Progress imp={props.imp} />
      {props.imp.state !== "cancelling" && (
        <button type="button" class="danger" onClick={() => setAsking(true)}>
          Cancel import
        </button>
      )}
      <Confirm open={asking} title="Cancel this import?" confirmLabel="Cancel import" danger onClose={(yes) => void cancel(yes)}>
        <p>
          Rows already imported stay, each complete. Items still waiting for their references are removed. You cannot resume a cancelled
          import.
        </p>
      </Confirm>
    </div>
  );
}

function Report(props: { imp: ImportView; collection: string }) {
  const failed = useLoad(firstRows(props.imp.id, "failed"), [props.imp.id]);
  const noted = useLoad(firstRows(props.imp.id, "noted"), [props.imp.id]);
  const d = props.imp.done;
  const td = props.imp.translations?.done;
  const words = props.imp.state === "done" ? "Import finished" : props.imp.state === "cancelled" ? "Import cancelled" : "Import stopped";
  return (
    <div>
      <h2>{words}</h2>
      <Notice kind={props.imp.state === "done" && d.failed === 0 ? "ok" : "info"}>
        {d.created} created, {d.updated} updated, {d.skipped} skipped, {d.failed} failed
        {props.imp.finishedAt ? ` (${when(props.imp.finishedAt)})` : ""}.
        {td && ` Translations among them: ${td.created} created, ${td.updated} updated, ${td.skipped} skipped, ${td.failed} failed.`}
      </Notice>
      <ErrorNotice error={failed.error} />
      {d.failed > 0 && failed.data && <ProblemTable rows={failed.data.rows} caption="Rows not imported, and why" />}
      <ErrorNotice error={noted.error} />
      {noted.data && noted.data.rows.length > 0 && (
        <ProblemTable
          rows={noted.data.rows}
          notes
          caption={`Rows imported with notes${noted.data.next !== null ? " (the first 200; the report has all)" : ""}`}
        />
      )}
      <div class="actions">
        <a class="button" href={reportHref(props.imp)} download>
          Download the report (CSV)
        </a>
        <a class="button secondary" href={href(site.value!.id, "items", props.collection)}>
          Open the collection
        </a>
      </div>
    </div>
  );
}
