/** The workspace's activity: who did what, filtered by person, site and kind, page by page, and as CSV. */
import { useState } from "preact/hooks";
import { call, client } from "../../api";
import { DataTable } from "../../data-table";
import { ErrorNotice, Field, when } from "../../ui";
import { useLoad } from "../../use-load";
import { Person } from "../../person";
import type { SiteName } from "../../workspace-sites";
import { activityWords, targetHref } from "./activity-words";
import { refused, siteOptions } from "./roles";

export function Activity(props: { id: string; sites: SiteName[]; changes: number }) {
  const id = props.id;
  const [filter, setFilter] = useState({ actor: "", siteId: "", kind: "" });
  const [before, setBefore] = useState<string | null>(null);
  const query = {
    ...(filter.actor ? { actor: filter.actor } : {}),
    ...(filter.siteId ? { siteId: filter.siteId } : {}),
    ...(filter.kind ? { kind: filter.kind } : {}),
  };
  const page = useLoad(
    () =>
      call(
        client.GET("/workspaces/{id}/audit", {
          params: { path: { id }, query: { ...query, ...(before ? { before } : {}), limit: 50 } },
        }),
      ),
    [id, filter.actor, filter.siteId, filter.kind, before, props.changes],
  );
  if (refused(page.error))
    return (
      <div class="card">
        <h2>Activity</h2>
        <p class="muted">Your role cannot see the workspace's activity.</p>
      </div>
    );
  const csv = `/workspaces/${encodeURIComponent(id)}/audit.csv?${new URLSearchParams(query).toString()}`;
  return (
    <div class="card">
      <h2>Activity</h2>
      <div class="row">
        <Field label="Person (name, email or key name)">
          {(fid) => (
            <input
              id={fid}
              value={filter.actor}
              onChange={(e) => (setBefore(null), setFilter({ ...filter, actor: e.currentTarget.value.trim() }))}
            />
          )}
        </Field>
        <Field label="Site">
          {(fid) => (
            <select
              id={fid}
              value={filter.siteId}
              onChange={(e) => (setBefore(null), setFilter({ ...filter, siteId: e.currentTarget.value }))}
            >
              {siteOptions(props.sites).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Kind">
          {(fid) => (
            <select id={fid} value={filter.kind} onChange={(e) => (setBefore(null), setFilter({ ...filter, kind: e.currentTarget.value }))}>
              <option value="">Every kind</option>
              {["Items", "Media", "Collections", "Members", "Keys", "Sites", "SEO", "Domains", "Search", "Workspaces"].map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <p>
        <a class="button secondary" href={csv} download>
          Download CSV
        </a>
      </p>
      <ErrorNotice error={page.error} />
      <DataTable
        label="Activity"
        columns={["When", "Who", "What", "Target"]}
        rows={page.data?.entries ?? null}
        error={page.error}
        loading="Loading activity…"
        empty={
          query.actor || query.siteId || query.kind
            ? "Nothing matches these filters. Clear a filter to see more."
            : "No activity yet. Changes to content, people and keys show here, with who made them."
        }
        row={(e) => {
          const to = targetHref(e, id);
          return (
            <tr key={e.id}>
              <td>{when(e.at)}</td>
              <td>
                <Person who={e.actor} />
              </td>
              <td>{activityWords(e)}</td>
              <td>{to ? <a href={to}>{e.target}</a> : e.target}</td>
            </tr>
          );
        }}
      />
      {page.data?.next && (
        <button type="button" class="secondary" onClick={() => setBefore(page.data!.next)}>
          Older activity
        </button>
      )}
    </div>
  );
}
