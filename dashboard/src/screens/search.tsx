import { useState } from "preact/hooks";
import { api, get } from "../api";
import { itemTitle } from "../item-title";
import { PlanGate } from "../plan-gate";
import { collections, site, sitePath } from "../site-state";
import type { Item } from "../types";
import { ErrorNotice, Field, Heading, Notice, type Submit } from "../ui";
import { useLoad } from "../use-load";

interface SearchStatus {
  enabled: boolean;
  model: string;
  pending: number;
  indexed: number;
  failed: number;
}
type PublicItem = Omit<Item, "status" | "createdAt">;

/** Semantic search as visitors get it (the public content API with this site's token), for the owner to try. */
export function Search() {
  const s = site.value!;
  const status = useLoad(() => get<{ search: SearchStatus }>(sitePath("search")), [s.id]);
  const [q, setQ] = useState("");
  const [results, setResults] = useState<{ item: PublicItem; score: number }[] | null>(null);
  const [related, setRelated] = useState<{ of: string; items: PublicItem[] } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [retried, setRetried] = useState(false);
  if (!s.flags.aiSearch) return <PlanGate needs="pro" what="Semantic search and related items" />;
  const v1 = `/v1/${encodeURIComponent(s.token)}`;

  const search = async (e: Submit) => {
    e.preventDefault();
    setError(null);
    setRelated(null);
    try {
      setResults(
        (await get<{ results: { item: PublicItem; score: number }[] }>(`${v1}/search?q=${encodeURIComponent(q)}&limit=10`)).results,
      );
    } catch (err) {
      setError(err);
    }
  };
  const showRelated = async (item: PublicItem) => {
    setError(null);
    try {
      const r = await get<{ items: PublicItem[] }>(`${v1}/collections/${item.collection}/items/${encodeURIComponent(item.slug)}/related`);
      setRelated({ of: item.id, items: r.items });
    } catch (err) {
      setError(err);
    }
  };
  const retry = async () => {
    await api("POST", sitePath("search", "retry"));
    setRetried(true);
    status.reload();
  };
  const st = status.data?.search;
  const name = (item: PublicItem) =>
    itemTitle(
      collections.value?.find((c) => c.slug === item.collection),
      item,
    );
  return (
    <section>
      <Heading>Search</Heading>
      <ErrorNotice error={status.error ?? error} />
      {st && (
        <div class="cards">
          <div class="card stat">
            <span class="stat-value">{st.indexed}</span>
            <span class="stat-label">Items indexed</span>
          </div>
          <div class="card stat">
            <span class="stat-value">{st.pending}</span>
            <span class="stat-label">Waiting to be indexed</span>
          </div>
          <div class="card stat">
            <span class="stat-value">{st.failed}</span>
            <span class="stat-label">Failed</span>
            {st.failed > 0 && (
              <button type="button" class="secondary small" onClick={() => void retry()}>
                Retry failed items
              </button>
            )}
          </div>
        </div>
      )}
      {retried && <Notice kind="ok">Failed items are queued again.</Notice>}
      <p class="muted">
        Published items are indexed by meaning a few seconds after each publish ({st?.model ?? "…"}). Try what your visitors would type.
      </p>
      <form class="toolbar" role="search" onSubmit={search}>
        <Field label="Search by meaning">
          {(id) => <input id={id} type="search" required maxLength={1000} value={q} onInput={(e) => setQ(e.currentTarget.value)} />}
        </Field>
        <button type="submit">Search</button>
      </form>
      {results && results.length === 0 && <p>No published item is close enough in meaning.</p>}
      {results && results.length > 0 && (
        <ol class="results-list">
          {results.map((r) => (
            <li key={r.item.id} class="card">
              <strong>{name(r.item)}</strong> <span class="muted">score {r.score.toFixed(3)}</span>{" "}
              <button type="button" class="secondary small" onClick={() => void showRelated(r.item)}>
                Related to {name(r.item)}
              </button>
              {related?.of === r.item.id && (
                <ul>
                  {related.items.length === 0 && <li>No related items.</li>}
                  {related.items.map((x) => (
                    <li key={x.id}>{name(x)}</li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
