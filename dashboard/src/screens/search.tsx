import { useState } from "preact/hooks";
import { api, get } from "../api";
import { itemTitle } from "../item-title";
import { PlanGate } from "../plan-gate";
import { href } from "../router";
import { collections, site, sitePath } from "../site-state";
import type { Item, ItemList } from "../types";
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
  const [keyword, setKeyword] = useState<Item[] | null>(null);
  const [related, setRelated] = useState<{ of: string; items: PublicItem[] } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [retried, setRetried] = useState(false);
  if (!s.flags.aiSearch) return <PlanGate needs="pro" what="Semantic search and related items" />;
  const v1 = `/v1/${encodeURIComponent(s.token)}`;

  const search = async (e: Submit) => {
    e.preventDefault();
    setError(null);
    setRelated(null);
    // Words as typed, beside meaning: one short word ("tomato") rarely clears the model's threshold
    // (docs/search.md), while the item that holds the word is exactly what the owner looks for.
    const words = q.trim().slice(0, 200);
    const lists = (collections.value ?? []).map((c) =>
      get<ItemList>(`${sitePath("collections", c.slug, "items")}?limit=10&search=${encodeURIComponent(words)}`).then((r) => r.items),
    );
    try {
      const [semantic, ...found] = await Promise.all([
        get<{ results: { item: PublicItem; score: number }[] }>(`${v1}/search?q=${encodeURIComponent(q)}&limit=10`),
        ...lists,
      ]);
      setResults(semantic.results);
      setKeyword(found.flat().slice(0, 20));
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
  const link = (item: PublicItem) => <a href={href(s.id, "items", item.collection, item.id)}>{name(item)}</a>;
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
        <Field label="Search your items">
          {(id) => <input id={id} type="search" required maxLength={1000} value={q} onInput={(e) => setQ(e.currentTarget.value)} />}
        </Field>
        <button type="submit">Search</button>
      </form>
      {results && (
        <div class="search-columns">
          <div>
            <h2>By meaning</h2>
            <p class="muted">What visitors get from your site's search: published items, closest first.</p>
            {results.length === 0 && (
              <p>No published item is close enough in meaning. A single word often is not: try a few words, as a visitor would.</p>
            )}
            {results.length > 0 && (
              <ol class="results-list">
                {results.map((r) => (
                  <li key={r.item.id} class="card">
                    <strong>{link(r.item)}</strong> <span class="muted">score {r.score.toFixed(3)}</span>{" "}
                    <button type="button" class="secondary small" onClick={() => void showRelated(r.item)}>
                      Related to {name(r.item)}
                    </button>
                    {related?.of === r.item.id && (
                      <ul>
                        {related.items.length === 0 && <li>No related items.</li>}
                        {related.items.map((x) => (
                          <li key={x.id}>{link(x)}</li>
                        ))}
                      </ul>
                    )}
                  </li>
                ))}
              </ol>
            )}
          </div>
          <div>
            <h2>By the words</h2>
            <p class="muted">Items holding what you typed, drafts too (this dashboard only).</p>
            {keyword && keyword.length === 0 && <p>No item holds these words.</p>}
            {keyword && keyword.length > 0 && (
              <ul class="results-list">
                {keyword.map((item) => (
                  <li key={item.id} class="card">
                    <strong>{link(item)}</strong>{" "}
                    <span class="muted">in {collections.value?.find((c) => c.slug === item.collection)?.name ?? item.collection}</span>{" "}
                    {item.status === "draft" && <span class="badge draft">Draft</span>}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
