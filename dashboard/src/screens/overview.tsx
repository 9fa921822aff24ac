import { get } from "../api";
import { href } from "../router";
import { collections, site, sitePath } from "../site-state";
import { PLAN_NAMES, type Stats } from "../types";
import { ErrorNotice, Heading, when } from "../ui";
import { useLoad } from "../use-load";

export function Overview() {
  const s = site.value!;
  const { data, error } = useLoad(() => get<{ stats: Stats }>(sitePath("stats")), [s.id]);
  const stats = data?.stats;
  const features: [string, boolean][] = [
    ["Filters and text search in lists (Pro)", s.features.advancedLists],
    ["Semantic search and related items (Pro)", s.flags.aiSearch],
    ["SEO Engine: pages rendered on the server, sitemap and feeds", s.features.serverRendering],
  ];
  const first = collections.value?.[0];
  return (
    <section>
      <Heading>{s.name}</Heading>
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
      <div class="columns">
        <div class="card">
          <h2>Your plan includes</h2>
          <ul class="checklist">
            {features.map(([label, on]) => (
              <li key={label} class={on ? "on" : "off"}>
                <span aria-hidden="true">{on ? "✓" : "–"}</span> {label}
                <span class="visually-hidden">{on ? " (included)" : " (not included)"}</span>
              </li>
            ))}
          </ul>
        </div>
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
                <span class={`badge ${r.status}`}>{r.status === "published" ? "Published" : "Draft"}</span>{" "}
                <span class="muted">
                  {r.collection} · {when(r.updatedAt)}
                </span>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
