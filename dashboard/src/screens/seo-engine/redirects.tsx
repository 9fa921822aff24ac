/**
 * The SEO Engine's redirects card: old addresses of the site sent to new ones (a path of the site
 * or another site's URL), found by text, added, changed and deleted one by one, or many at once as
 * a CSV file both ways. Renamed items need no rule: their old slugs redirect on their own.
 */
import { useRef, useState } from "preact/hooks";
import { ApiFailure, call, client } from "../../api";
import type { components } from "../../generated/api";
import { DataTable } from "../../data-table";
import { SelectField, TextField } from "../../form-fields";
import { sendFile } from "../../send-file";
import { can, inSite, site } from "../../site-state";
import { Confirm, ErrorNotice, Field, Notice, Pager } from "../../ui";
import { useForm } from "../../use-form";
import { useLoad } from "../../use-load";

type Rule = components["schemas"]["ListRedirectsResponse"]["redirects"][number];
type Imported = components["schemas"]["ImportRedirectsResponse"];

const KINDS = [
  ["301", "Permanent (301)"],
  ["302", "Temporary (302)"],
] as const;
const PAGE = 100;

export function Redirects(props: { base: string }) {
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const list = useLoad(
    () => call(client.GET("/sites/{siteId}/ssr/redirects", { params: { path: inSite(), query: { q, page } } })),
    [q, page],
  );
  const [editing, setEditing] = useState<Rule | null>(null);
  const [deleting, setDeleting] = useState<Rule | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  const editable = can("seo.manage");
  const fromBox = useRef<HTMLDivElement>(null);
  const data = list.data;
  const changed = (words: string) => {
    setDone(words);
    list.reload();
  };
  const remove = async (rule: Rule) => {
    setDeleteError(null);
    try {
      await call(client.DELETE("/sites/{siteId}/ssr/redirects/{redirectId}", { params: { path: inSite({ redirectId: rule.id }) } }));
      if (editing?.id === rule.id) setEditing(null);
      changed(`Deleted the redirect from ${rule.from}.`);
    } catch (err) {
      setDeleteError(err);
    }
  };
  return (
    <div class="card redirects-card">
      <h2>Redirects</h2>
      <p class="muted">
        Send old addresses to new ones, so links and search results that point at them still arrive: a path of your site, such as{" "}
        <code>{props.base}old-post</code>, to another path or to a whole other site. Renamed items need none: their old addresses lead to
        them on their own
        {data && data.automatic > 0 ? ` (${data.automatic} old item address${data.automatic === 1 ? " does" : "es do"} so now)` : ""}.
      </p>
      {editable && (
        <div ref={fromBox}>
          <RuleForm
            key={editing?.id ?? "new"}
            rule={editing}
            base={props.base}
            onDone={(words) => {
              setEditing(null);
              changed(words);
            }}
            onCancel={() => setEditing(null)}
          />
        </div>
      )}
      {done && <Notice kind="ok">{done}</Notice>}
      <div class="toolbar">
        <Field label="Find a redirect">
          {(id) => (
            <input
              id={id}
              type="search"
              value={q}
              placeholder="Old or new path"
              onInput={(e) => {
                setQ(e.currentTarget.value);
                setPage(1);
              }}
            />
          )}
        </Field>
        <a class="button secondary" href={`/sites/${encodeURIComponent(site.value!.id)}/ssr/redirects.csv`} download="redirects.csv">
          Download as CSV
        </a>
        {editable && <CsvImport onDone={changed} />}
      </div>
      <ErrorNotice error={list.error ?? deleteError} />
      <DataTable
        label="Redirects"
        columns={["Old path", "Leads to", "Kind", { hidden: "Actions" }]}
        rows={data?.redirects ?? null}
        loading="Loading redirects…"
        error={list.error}
        empty={
          q
            ? `No redirect holds “${q}”.`
            : editable
              ? "No redirects yet. Add the first above, or import a CSV file with the columns from and to."
              : "No redirects yet."
        }
        row={(r) => (
          <tr key={r.id}>
            <td>
              <code>{r.from}</code>
            </td>
            <td>
              <code>{r.to}</code>
            </td>
            <td>{r.status === 301 ? "Permanent" : "Temporary"}</td>
            <td class="actions">
              {editable && (
                <>
                  <button
                    type="button"
                    class="secondary"
                    aria-label={`Edit the redirect from ${r.from}`}
                    onClick={() => {
                      setDone(null);
                      setEditing(r);
                      fromBox.current?.scrollIntoView({ block: "nearest" });
                      requestAnimationFrame(() => fromBox.current?.querySelector("input")?.focus());
                    }}
                  >
                    Edit
                  </button>
                  <button type="button" class="danger" aria-label={`Delete the redirect from ${r.from}`} onClick={() => setDeleting(r)}>
                    Delete
                  </button>
                </>
              )}
            </td>
          </tr>
        )}
      />
      {data && (
        <p class="muted small-text">
          {data.total} redirect{data.total === 1 ? "" : "s"}
          {q ? ` holding “${q}”` : ""} · a site holds up to {data.max.toLocaleString("en")}
        </p>
      )}
      {data && <Pager page={page} totalPages={Math.ceil(data.total / PAGE)} onPage={setPage} />}
      <Confirm
        open={deleting !== null}
        title="Delete this redirect?"
        confirmLabel="Delete redirect"
        danger
        onClose={(yes) => {
          const rule = deleting;
          setDeleting(null);
          if (yes && rule) void remove(rule);
        }}
      >
        <p>
          <code>{deleting?.from}</code> will no longer lead to <code>{deleting?.to}</code>: visitors there get the page at that address, or
          “not found” when there is none.
        </p>
      </Confirm>
    </div>
  );
}

function RuleForm(props: { rule: Rule | null; base: string; onDone: (words: string) => void; onCancel: () => void }) {
  const r = props.rule;
  const form = useForm(
    { from: r?.from ?? "", to: r?.to ?? "", status: String(r?.status ?? 301) },
    async (v) => {
      const body = { from: v.from, to: v.to, status: Number(v.status) as 301 | 302 };
      return r
        ? (await call(client.PUT("/sites/{siteId}/ssr/redirects/{redirectId}", { params: { path: inSite({ redirectId: r.id }) }, body })))
            .redirect
        : (await call(client.POST("/sites/{siteId}/ssr/redirects", { params: { path: inSite() }, body }))).redirect;
    },
    {
      onSaved: (saved) => {
        if (!r) form.reset({ from: "", to: "", status: "301" });
        props.onDone(`${r ? "Changed" : "Added"}: ${saved.from} now leads to ${saved.to}.`);
      },
    },
  );
  return (
    <form class="redirect-form" onSubmit={form.onSubmit} aria-label={r ? `Change the redirect from ${r.from}` : "Add a redirect"}>
      {form.failure && <Notice kind="error">{form.failure}</Notice>}
      <div class="redirect-fields">
        <TextField
          form={form}
          name="from"
          label="Old path"
          hint="The address as it was, a path of your site."
          placeholder={`${props.base}old-post`}
          required
        />
        <TextField
          form={form}
          name="to"
          label="Leads to"
          hint="A path of your site, or a full https:// address."
          placeholder={`${props.base}new-post`}
          required
        />
        <SelectField
          form={form}
          name="status"
          label="Kind"
          hint="Permanent moves the old page's ranking to the new one; temporary keeps it."
          options={KINDS}
        />
      </div>
      <div class="actions">
        <button type="submit" disabled={form.pending}>
          {form.pending ? "Saving…" : r ? "Save changes" : "Add redirect"}
        </button>
        {r && (
          <button type="button" class="secondary" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

/** A CSV file of rules sent as it is, with its progress; the service takes all of it or none. */
function CsvImport(props: { onDone: (words: string) => void }) {
  const [sent, setSent] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [problems, setProblems] = useState<{ path: string; message: string }[]>([]);
  const choose = async (file: File) => {
    setError(null);
    setProblems([]);
    setSent(0);
    const url = `/sites/${encodeURIComponent(site.value!.id)}/ssr/redirects/import`;
    try {
      const answer = await sendFile("POST", url, { "content-type": "text/csv" }, file, (loaded, total) =>
        setSent(Math.round((loaded / Math.max(total, 1)) * 100)),
      ).done;
      if (answer.status !== 200) {
        const envelope = answer.error ?? { code: "unknown", message: `The service answered ${answer.status}. Try again.` };
        setProblems(((envelope.details as { issues?: { path: string; message: string }[] } | undefined)?.issues ?? []).slice(0, 10));
        throw new ApiFailure(answer.status, { code: envelope.code, message: envelope.message });
      }
      const n = answer.body as Imported;
      props.onDone(`Imported ${file.name}: ${n.added} added, ${n.updated} changed, ${n.unchanged} already there.`);
    } catch (err) {
      setError(err instanceof ApiFailure ? err : new ApiFailure(0, { code: "network", message: (err as Error).message }));
    } finally {
      setSent(null);
    }
  };
  return (
    <div class="csv-import">
      <Field label="Import a CSV file" hint="Columns from and to (and status, 301 or 302). A path already listed is replaced.">
        {(id, describedBy) => (
          <input
            id={id}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={describedBy}
            disabled={sent !== null}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = "";
              if (file) void choose(file);
            }}
          />
        )}
      </Field>
      {sent !== null && (
        <p role="status">
          Importing… <progress max={100} value={sent} aria-label="Import progress" /> {sent}%
        </p>
      )}
      <ErrorNotice error={error} />
      {problems.length > 0 && (
        <ul class="problems" aria-label="Lines to fix">
          {problems.map((p) => (
            <li key={p.path}>
              {p.path}: {p.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
