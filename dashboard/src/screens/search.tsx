import { useEffect, useState } from "preact/hooks";
import { call, client } from "../api";
import { itemTitle } from "../item-title";
import { PlanGate } from "../plan-gate";
import { href } from "../router";
import { collections, inSite, site } from "../site-state";
import type { Item, PublicItem } from "../types";
import { ErrorNotice, Field, Heading, Notice } from "../ui";
import { useForm } from "../use-form";
import { useLoad } from "../use-load";

/** What a result line shows, of a public item or of a dashboard item (drafts too). */
type Listed = Pick<PublicItem, "id" | "slug" | "collection" | "data">;

/** Semantic search as visitors get it (the public content API with this site's token), for the owner to try. */
export function Search() {
  const s = site.value!;
  const status = useLoad(() => call(client.GET("/sites/{siteId}/search", { params: { path: inSite() } })), [s.id]);
  const [results, setResults] = useState<{ item: PublicItem; score: number }[] | null>(null);
  const [keyword, setKeyword] = useState<Item[] | null>(null);
  const [related, setRelated] = useState<{ of: string; items: PublicItem[] } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [retried, setRetried] = useState(false);
  // The search box is a form like any other: its failures come back through the form hook.
  const form = useForm({ q: "" }, async ({ q }) => {
    setError(null);
    setRelated(null);
    // Words as typed, beside meaning: one short word ("tomato") rarely clears the model's threshold
    // (docs/search.md), while the item that holds the word is exactly what the owner looks for.
    const words = q.trim().slice(0, 200);
    const lists = (collections.value ?? []).map((c) =>
      call(
        client.GET("/sites/{siteId}/collections/{slug}/items", {
          params: { path: inSite({ slug: c.slug }), query: { limit: 10, search: words } },
        }),
      ).then((r) => r.items),
    );
    const [semantic, ...found] = await Promise.all([
      call(client.GET("/v1/{token}/search", { params: { path: { token: s.token }, query: { q, limit: 10 } } })),
      ...lists,
    ]);
    setResults(semantic.results);
    setKeyword(found.flat().slice(0, 20));
  });
  if (!s.flags.aiSearch) return <PlanGate title="Search" needs="pro" what="Semantic search and related items" />;

  const showRelated = async (item: PublicItem) => {
    setError(null);
    try {
      const r = await call(
        client.GET("/v1/{token}/collections/{slug}/items/{itemSlug}/related", {
          params: { path: { token: s.token, slug: item.collection, itemSlug: item.slug } },
        }),
      );
      setRelated({ of: item.id, items: r.items });
    } catch (err) {
      setError(err);
    }
  };
  const retry = async () => {
    setError(null);
    try {
      await call(client.POST("/sites/{siteId}/search/retry", { params: { path: inSite() } }));
      setRetried(true);
      status.reload();
    } catch (err) {
      setError(err);
    }
  };
  const st = status.data?.search;
  // While items wait to be indexed, the counts are read again every 2 seconds: the bar moves as
  // the index fills (a large import or a new model queues every published item).
  const waiting = st?.pending ?? 0;
  useEffect(() => {
    if (waiting === 0) return;
    const t = setTimeout(status.reload, 2000);
    return () => clearTimeout(t);
  }, [waiting, status.data]);
  const name = (item: Listed) =>
    itemTitle(
      collections.value?.find((c) => c.slug === item.collection),
      item,
    );
  const link = (item: Listed) => <a href={href(s.id, "items", item.collection, item.id)}>{name(item)}</a>;
  return (
    <section>
      <Heading>Search</Heading>
      <ErrorNotice error={status.error ?? error ?? form.error} />
      {st && (
        <div class="cards">
          <div class="card stat">
            <span class="stat-value">{st.indexed.toLocaleString("en")}</span>
            <span class="stat-label">Items indexed</span>
          </div>
          <div class="card stat">
            <span class="stat-value">{st.pending.toLocaleString("en")}</span>
            <span class="stat-label">Waiting to be indexed</span>
          </div>
          <div class="card stat">
            <span class="stat-value">{st.failed.toLocaleString("en")}</span>
            <span class="stat-label">Failed</span>
            {st.failed > 0 && (
              <button type="button" class="secondary small" onClick={() => void retry()}>
                Retry failed items
              </button>
            )}
          </div>
        </div>
      )}
      {st && st.pending > 0 && (
        <p>
          <label for="search-indexing">
            Indexing by meaning: {st.indexed.toLocaleString("en")} of {(st.indexed + st.pending).toLocaleString("en")} items
          </label>{" "}
          <progress id="search-indexing" max={st.indexed + st.pending} value={st.indexed} />
        </p>
      )}
      {retried && <Notice kind="ok">Failed items are queued again.</Notice>}
      <p class="muted">
        Published items are indexed by meaning a few seconds after each publish ({st?.model ?? "…"}). Try what your visitors would type.
      </p>
      <form class="toolbar" role="search" onSubmit={form.onSubmit}>
        <Field label="Search your items" error={form.errors.q}>
          {(id, d) => (
            <input
              id={id}
              type="search"
              required
              maxLength={1000}
              value={form.values.q}
              aria-describedby={d}
              onInput={(e) => form.set("q", e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={form.pending}>
          Search
        </button>
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
