import { useState } from "preact/hooks";
import { asOf, call, client } from "../api";
import { itemTitle } from "../item-title";
import { href, takeFlash } from "../router";
import { RecentlyDeleted, statusWords } from "../history/trash";
import { can, collections, inSite, site } from "../site-state";
import { ErrorNotice, Field, Heading, Notice, Pager, type Submit, when } from "../ui";
import { useLoad } from "../use-load";
import { useKept } from "../use-kept";

/** How each kind of value reads in order, ascending then descending ("Price: lowest first"). */
const SORT_WORDS: Readonly<Record<string, readonly [string, string]>> = {
  text: ["A–Z", "Z–A"],
  link: ["A–Z", "Z–A"],
  option: ["A–Z", "Z–A"],
  number: ["lowest first", "highest first"],
  date: ["oldest first", "newest first"],
  boolean: ["no first", "yes first"],
  reference: ["ascending", "descending"],
};

export function Items(props: { collectionSlug: string }) {
  const s = site.value!;
  const c = collections.value?.find((x) => x.slug === props.collectionSlug);
  // The list as it was left in this tab: reload and Back keep the filter, sort, search and page.
  const view = `${s.id}/${props.collectionSlug}`;
  const [page, setPage] = useKept<number>(`${view}/page`, 1);
  const [status, setStatus] = useKept<string>(`${view}/status`, "");
  const [sort, setSort] = useKept<string>(`${view}/sort`, "");
  const [search, setSearch] = useKept<string>(`${view}/search`, "");
  const [typed, setTyped] = useState(search);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [message, setMessage] = useState<string | null>(takeFlash);
  const [error, setError] = useState<unknown>(null);
  const query = {
    page,
    limit: 25,
    ...(status ? { status: status as "draft" | "published" } : {}),
    ...(sort ? { sort } : {}),
    ...(search ? { search } : {}),
  };
  const list = useLoad(
    () => call(client.GET("/sites/{siteId}/collections/{slug}/items", { params: { path: inSite({ slug: props.collectionSlug }), query } })),
    [JSON.stringify(query)],
  );
  if (!c) return <Notice kind="error">No collection “{props.collectionSlug}”.</Notice>;

  const sortable = c.fields.filter((f) => f.indexed);
  const items = list.data?.items ?? [];
  const drafts = items.filter((i) => selected.has(i.id) && i.status === "draft");

  const publishSelected = async () => {
    setError(null);
    try {
      for (const i of drafts)
        await call(
          client.POST("/sites/{siteId}/collections/{slug}/items/{id}/publish", {
            params: { path: inSite({ slug: c.slug, id: i.id }), header: asOf(i) },
          }),
        );
      setMessage(`${drafts.length} item${drafts.length === 1 ? "" : "s"} published.`);
      setSelected(new Set());
      list.reload();
    } catch (err) {
      setError(err);
      list.reload();
    }
  };
  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <section>
      <Heading
        actions={
          <>
            <a class="button secondary" href={href(s.id, "collection", c.slug)}>
              {can("collections.manage") ? "Edit fields" : "See fields"}
            </a>
            <a
              class="button secondary"
              href={`/sites/${encodeURIComponent(s.id)}/collections/${encodeURIComponent(c.slug)}/export.csv`}
              download
            >
              Export CSV
            </a>
            {/* Importing creates, edits and publishes any item: offered to Editors and up (the API refuses others). */}
            {can("items.publish.any") && (
              <a class="button secondary" href={href(s.id, "import", c.slug)}>
                Import
              </a>
            )}
            <a class="button" href={href(s.id, "items", c.slug, "new")}>
              New item
            </a>
          </>
        }
      >
        {c.name}
      </Heading>
      <form
        class="toolbar"
        role="search"
        onSubmit={(e: Submit) => {
          e.preventDefault();
          setPage(1);
          setSearch(typed.trim());
        }}
      >
        <Field label="Search items">
          {(id) => <input id={id} type="search" value={typed} maxLength={200} onInput={(e) => setTyped(e.currentTarget.value)} />}
        </Field>
        <button type="submit" class="secondary">
          Search
        </button>
        <Field label="Show">
          {(id) => (
            <select
              id={id}
              value={status}
              onChange={(e) => {
                setPage(1);
                setStatus(e.currentTarget.value);
              }}
            >
              <option value="">All items</option>
              <option value="published">Published</option>
              <option value="draft">Drafts</option>
            </select>
          )}
        </Field>
        <Field label="Sort by">
          {(id) => (
            <select id={id} value={sort} onChange={(e) => setSort(e.currentTarget.value)}>
              <option value="">Newest first</option>
              <option value="-updatedAt">Last edited</option>
              <option value="-publishedAt">Last published</option>
              <option value="slug">Slug A–Z</option>
              {sortable.flatMap((f) => {
                const [up, down] = SORT_WORDS[f.type] ?? (["ascending", "descending"] as const);
                return [
                  <option key={f.key} value={f.key}>
                    {f.name ?? f.key}: {up}
                  </option>,
                  <option key={`-${f.key}`} value={`-${f.key}`}>
                    {f.name ?? f.key}: {down}
                  </option>,
                ];
              })}
            </select>
          )}
        </Field>
      </form>
      <ErrorNotice error={error ?? list.error} />
      {message && <Notice kind="ok">{message}</Notice>}
      <div class="bulk">
        {/* A role that cannot publish (Contributor) is not offered it; the API would refuse (403). */}
        {can("items.publish.any", "items.publish.own") && (
          <button type="button" disabled={drafts.length === 0} onClick={() => void publishSelected()}>
            Publish selected{drafts.length ? ` (${drafts.length})` : ""}
          </button>
        )}
        {search && <span class="muted">Results for “{search}”</span>}
      </div>
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">Items of {c.name}</caption>
          <thead>
            <tr>
              <th scope="col">
                <span class="visually-hidden">Select</span>
              </th>
              <th scope="col">{c.fields.find((f) => f.key === c.titleField)?.name ?? "Title"}</th>
              <th scope="col">Status</th>
              <th scope="col">Slug</th>
              <th scope="col">Last edited</th>
            </tr>
          </thead>
          <tbody>
            {items.map((i) => {
              const title = itemTitle(c, i);
              return (
                <tr key={i.id}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select ${title}`}
                      checked={selected.has(i.id)}
                      onChange={(e) => toggle(i.id, e.currentTarget.checked)}
                    />
                  </td>
                  <td>
                    <a href={href(s.id, "items", c.slug, i.id)}>{title}</a>
                  </td>
                  <td>
                    <span class={`badge ${i.status}${i.pendingChanges ? " pending" : ""}`}>{statusWords(i)}</span>
                  </td>
                  <td>
                    <code>{i.slug}</code>
                  </td>
                  <td>
                    {when(i.updatedAt)}
                    {/* The column (and its sort) is the live version's; pending changes say when they were saved. */}
                    {i.pendingChanges && <span class="muted block">changes saved {when(i.pendingChanges.updatedAt)}</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {list.data && items.length === 0 && (
          <p class="empty">
            {search || status
              ? "No items match. Clear the search or choose All items to see the others."
              : "No items yet. Choose New item to write the first one; it stays a draft until you publish it."}
          </p>
        )}
      </div>
      {list.data && <Pager page={list.data.page} totalPages={list.data.totalPages} onPage={setPage} />}
      <RecentlyDeleted
        siteId={s.id}
        collection={c}
        onRestored={() => {
          // "Deleted …" no longer holds once the item is back.
          setMessage(null);
          list.reload();
        }}
      />
    </section>
  );
}
