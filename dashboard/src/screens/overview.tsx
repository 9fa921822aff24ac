import { call, client } from "../api";
import { useState } from "preact/hooks";
import { href, takeFlash } from "../router";
import { collections, inSite, site } from "../site-state";
import { PLAN_NAMES } from "../types";
import { ErrorNotice, Heading, Notice, when } from "../ui";
import { useLoad } from "../use-load";
import { GoesLiveNext } from "../history/upcoming";

type Stats = NonNullable<Awaited<ReturnType<typeof loadStats>>>["stats"];
const loadStats = (siteId: string) => call(client.GET("/sites/{siteId}/stats", { params: { path: { siteId } } }));

/** The widget step: a page reported the embed script rendering (any plan), or the captured page holds a widget. */
function widgetDone(
  stats: Stats | undefined,
  seo: { capture: { page: { widgets: unknown[] } } | null } | null | undefined,
): boolean | null {
  if (stats?.widgetSeen) return true;
  if (seo?.capture && seo.capture.page.widgets.length > 0) return true;
  return stats && seo ? false : null;
}

export function Overview() {
  const s = site.value!;
  const [flash] = useState(takeFlash);
  const { data, error } = useLoad(() => loadStats(inSite().siteId), [s.id]);
  const stats = data?.stats;
  const features: [string, boolean][] = [
    ["Filters and text search in lists (Pro)", s.features.advancedLists],
    ["Semantic search and related items (Pro)", s.flags.aiSearch],
    ["SEO Engine: pages rendered on the server, sitemap and feeds", s.features.serverRendering],
  ];
  const first = collections.value?.[0];
  // The setup checklist ticks itself from what the site holds; SEO steps only exist on SEO Engine.
  const seo = useLoad(async () => {
    if (!s.features.serverRendering) return { capture: null, domain: false };
    // The status reads answer null for "none yet", which most new sites are (no failed request).
    const capture = await call(client.GET("/sites/{siteId}/ssr/capture/status", { params: { path: inSite() } })).then(
      (r) => r.capture,
      () => null,
    );
    const domain = await call(client.GET("/sites/{siteId}/ssr/custom-hostname/status", { params: { path: inSite() } })).then(
      (r) => [r.customHostname, r.replacing].some((h) => h?.sslStatus === "active"),
      () => false,
    );
    return { capture, domain };
  }, [s.id]);
  const steps: { label: string; done: boolean | null; to: string; note?: string }[] = [
    { label: "Create a collection", done: stats ? stats.collections > 0 : null, to: href(s.id, "collection", "new") },
    {
      label: "Add an item",
      done: stats ? stats.published + stats.drafts > 0 : null,
      to: first ? href(s.id, "items", first.slug, "new") : href(s.id, "collection", "new"),
    },
    {
      label: "Put the widget on your page",
      done: widgetDone(stats, seo.data),
      to: href(s.id, "integrate"),
      note: stats?.widgetSeen
        ? `seen on ${stats.widgetSeen.page} ${when(stats.widgetSeen.at)}`
        : s.features.serverRendering
          ? "ticked once a page shows a widget, or the captured page holds one"
          : "ticked once a page with the widget has been viewed",
    },
    ...(s.features.serverRendering
      ? [
          { label: "Capture your page for SEO", done: seo.data ? seo.data.capture !== null : null, to: href(s.id, "seo") },
          { label: "Connect a domain", done: seo.data ? seo.data.domain : null, to: href(s.id, "domains") },
        ]
      : []),
  ];
  const left = steps.filter((x) => x.done !== true).length;
  return (
    <section>
      <Heading>{s.name}</Heading>
      {flash && <Notice kind="ok">{flash}</Notice>}
      <ErrorNotice error={error} />
      <div class="cards">
        <div class="card stat">
          <span class="stat-value">{PLAN_NAMES[s.plan]}</span>
          <span class="stat-label">Plan</span>
        </div>
        <div class="card stat">
          <span class="stat-value">{stats?.collections ?? "…"}</span>
          <span class="stat-label">Collections</span>
        </div>
        <div class="card stat">
          <span class="stat-value">{stats?.published ?? "…"}</span>
          <span class="stat-label">Published items</span>
        </div>
        <div class="card stat">
          <span class="stat-value">{stats?.drafts ?? "…"}</span>
          <span class="stat-label">Drafts</span>
        </div>
      </div>
      {left > 0 && (
        <div class="card">
          <h2>Get started</h2>
          <p class="muted">
            {steps.length - left} of {steps.length} done. Each step ticks itself as your site changes.
          </p>
          <ol class="checklist setup">
            {steps.map((x) => (
              <li key={x.label} class={x.done ? "on" : "off"}>
                <span aria-hidden="true">{x.done ? "✓" : x.done === null ? "…" : "○"}</span>{" "}
                {x.done ? x.label : <a href={x.to}>{x.label}</a>}
                <span class="visually-hidden">{x.done ? " (done)" : x.done === null ? " (checking)" : " (to do)"}</span>
                {x.note && !x.done && <span class="muted"> ({x.note})</span>}
              </li>
            ))}
          </ol>
        </div>
      )}
      <div class="columns">
        <div class="card">
          <h2>Features of your plan</h2>
          <ul class="checklist">
            {features.map(([label, on]) => (
              <li key={label} class={on ? "on" : "off"}>
                <span aria-hidden="true">{on ? "✓" : "–"}</span> {label}
                {on ? <span class="visually-hidden"> (included)</span> : <span class="muted"> (not on your plan: see Plan)</span>}
              </li>
            ))}
          </ul>
        </div>
        <GoesLiveNext siteId={s.id} />
        <div class="card">
          <h2>Latest changes</h2>
          {stats && stats.recent.length === 0 && (
            <p>
              Nothing yet.{" "}
              {first ? (
                <a href={href(s.id, "items", first.slug, "new")}>Create your first item</a>
              ) : (
                <a href={href(s.id, "collection", "new")}>Create a collection</a>
              )}
              .
            </p>
          )}
          <ul class="recent">
            {stats?.recent.map((r) => (
              <li key={r.id}>
                <a href={href(s.id, "items", r.collection, r.id)}>{r.title ?? r.slug}</a>{" "}
                <span class={`badge ${r.status}${r.pendingChanges ? " pending" : ""}`}>
                  {r.status === "published" ? (r.pendingChanges ? "Published · unpublished changes" : "Published") : "Draft"}
                </span>{" "}
                <span class="muted">
                  {collections.value?.find((c) => c.slug === r.collection)?.name ?? r.collection} · {when(r.updatedAt)}
                </span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
