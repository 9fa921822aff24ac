import { useState } from "preact/hooks";
import { languageName } from "../language-name";
import { call, client } from "../api";
import { itemTitle } from "../item-title";
import { href, takeFlash } from "../router";
import { RecentlyDeleted, statusWords } from "../history/trash";
import { can, collections, inSite, site } from "../site-state";
import { ErrorNotice, Field, Heading, Notice, Pager, type Submit, when } from "../ui";
import { useLoad } from "../use-load";
import { useKept } from "../use-kept";
import { type Collection, type Field as FieldDef, type Item, LOCALIZABLE, type MediaEntry } from "../types";
import { ColumnsPicker, FieldCell, columnName, useColumns } from "./items/columns";
import { FieldFilters, type Filters, filterPairs } from "./items/filters";
import { BulkEdit, bulkFields } from "./items/bulk-edit";
import { SelectAll, publishSelected, useSelection } from "./items/selection";

/** How each kind of value reads in order, ascending then descending ("Price: lowest first"). */
const SORT_WORDS: Readonly<Record<string, readonly [string, string]>> = {
  text: ["A–Z", "Z–A"],
  link: ["A–Z", "Z–A"],
  option: ["A–Z", "Z–A"],
  number: ["lowest first", "highest first"],
  decimal: ["lowest first", "highest first"],
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
  // "1": the search also reads every other value, which costs a read of every item of the collection.
  const [searchAll, setSearchAll] = useKept<string>(`${view}/searchAll`, "");
  const [filterText, setFilterText] = useKept<string>(`${view}/filters`, "{}");
  // A secondary language's code: only the items not translated into it yet.
  const [missing, setMissing] = useKept<string>(`${view}/missing`, "");
  const secondaries = useSecondaries(c);
  const filters = parseFilters(filterText);
  const [typed, setTyped] = useState(search);
  const [columns, setColumns] = useColumns(s.id, c);
  const [message, setMessage] = useState<string | null>(takeFlash);
  const [error, setError] = useState<unknown>(null);
  const query = {
    page,
    limit: 25,
    ...(status ? { status: status as "draft" | "published" } : {}),
    ...(sort ? { sort } : {}),
    ...(search ? { search, searchIn: searchAll ? ("all" as const) : ("indexed" as const) } : {}),
    ...(missing && secondaries.includes(missing) ? { missing } : {}),
  };
  const list = useLoad(
    () =>
      call(
        client.GET("/sites/{siteId}/collections/{slug}/items", {
          params: { path: inSite({ slug: props.collectionSlug }), query },
          // filter[key][op] is two levels deep, which the client's own serializer does not write.
          querySerializer: (q) => new URLSearchParams([...plainPairs(q), ...filterPairs(filters)]).toString(),
        }),
      ),
    [JSON.stringify(query), filterText],
  );
  const media = useThumbnails(c, columns, list.data?.items ?? []);
  // One selection per list: a new search, filter, status or sort starts with none.
  const selection = useSelection(JSON.stringify([props.collectionSlug, status, sort, search, searchAll, filterText, missing]));
  const [publishing, setPublishing] = useState<string | null>(null);
  if (!c) return <Notice kind="error">No collection “{props.collectionSlug}”.</Notice>;

  const sortable = c.fields.filter((f) => f.indexed);
  const items = list.data?.items ?? [];
  const chosen = [...selection.selected.values()];
  const drafts = chosen.filter((i) => i.status === "draft");
  const filtered = filterPairs(filters).length > 0;
  const readPage = (p: number, limit: number) =>
    call(
      client.GET("/sites/{siteId}/collections/{slug}/items", {
        params: { path: inSite({ slug: props.collectionSlug }), query: { ...query, page: p, limit } },
        querySerializer: (q) => new URLSearchParams([...plainPairs(q), ...filterPairs(filters)]).toString(),
      }),
    ).then((r) => r.items);

  const publishDrafts = async () => {
    setError(null);
    setPublishing(`Publishing ${drafts.length.toLocaleString("en")} item${drafts.length === 1 ? "" : "s"}…`);
    try {
      const n = await publishSelected(c.slug, drafts);
      setMessage(`${n.toLocaleString("en")} item${n === 1 ? "" : "s"} published.`);
      selection.clear();
    } catch (err) {
      setError(err);
    } finally {
      setPublishing(null);
      list.reload();
    }
  };

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
        {/* The box, its button and "Every field" stay on one line at any width; the hint says what each reads. */}
        <div class="search-group">
          <Field label="Search items">
            {(id) => (
              <input
                id={id}
                type="search"
                value={typed}
                maxLength={200}
                aria-describedby="items-search-hint"
                onInput={(e) => setTyped(e.currentTarget.value)}
              />
            )}
          </Field>
          <button type="submit" class="secondary">
            Search
          </button>
          <label class="check">
            <input
              type="checkbox"
              checked={searchAll === "1"}
              aria-describedby="items-search-hint"
              onChange={(e) => {
                setPage(1);
                setSearchAll(e.currentTarget.checked ? "1" : "");
              }}
            />{" "}
            Every field
          </label>
          <p class="hint" id="items-search-hint">
            Slugs and indexed fields. “Every field” reads every item: slower in a large collection.
          </p>
        </div>
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
        {secondaries.length > 0 && (
          <Field label="Translation">
            {(id) => (
              <select
                id={id}
                value={missing}
                onChange={(e) => {
                  setPage(1);
                  setMissing(e.currentTarget.value);
                }}
              >
                <option value="">Every item</option>
                {secondaries.map((code) => (
                  <option key={code} value={code}>
                    Missing translation: {languageName(code)} ({code})
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
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
      <FieldFilters
        collection={c}
        value={filters}
        onChange={(next: Filters) => {
          setPage(1);
          setFilterText(JSON.stringify(next));
        }}
      />
      <ErrorNotice error={error ?? list.error} />
      {message && <Notice kind="ok">{message}</Notice>}
      <div class="bulk">
        {/* A role that cannot publish (Contributor) is not offered it; the API would refuse (403). */}
        {can("items.publish.any", "items.publish.own") && (
          <button type="button" disabled={drafts.length === 0 || publishing !== null} onClick={() => void publishDrafts()}>
            {publishing ?? `Publish selected${drafts.length ? ` (${drafts.length.toLocaleString("en")})` : ""}`}
          </button>
        )}
        {can("items.edit.any") && bulkFields(c).length > 0 && (
          <BulkEdit
            collection={c}
            items={chosen}
            onDone={(m) => {
              setMessage(m);
              selection.clear();
              list.reload();
            }}
            onError={(err) => {
              setError(err);
              list.reload();
            }}
          />
        )}
        <SelectAll
          selection={selection}
          shown={items}
          total={list.data?.total ?? 0}
          onSelect={() => void selection.selectAll(list.data?.total ?? 0, readPage).catch(setError)}
        />
        {search && <span class="muted">Results for “{search}”</span>}
        <ColumnsPicker collection={c} chosen={columns} onChange={setColumns} />
      </div>
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">Items of {c.name}</caption>
          <thead>
            <tr>
              <th scope="col">
                <span class="visually-hidden">Select</span>
                <input
                  type="checkbox"
                  aria-label="Select every item on this page"
                  checked={items.length > 0 && items.every((i) => selection.selected.has(i.id))}
                  onChange={(e) => selection.setPage(items, e.currentTarget.checked)}
                />
              </th>
              <th scope="col">{c.fields.find((f) => f.key === c.titleField)?.name ?? "Title"}</th>
              {columns.map((k) => (
                <th scope="col" key={k}>
                  {columnName(c, k)}
                </th>
              ))}
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
                      checked={selection.selected.has(i.id)}
                      onChange={(e) => selection.toggle(i, e.currentTarget.checked)}
                    />
                  </td>
                  <td>
                    <a href={href(s.id, "items", c.slug, i.id)}>{title}</a>
                  </td>
                  {columns.map((k) => (
                    <td key={k}>
                      <Cell collection={c} column={k} item={i} media={media} />
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
        {list.data && items.length === 0 && (
          <p class="empty">
            {search || status || filtered || query.missing
              ? `No ${c.name.toLowerCase()} match. Clear the search and the filters, or choose All items, to see the others.`
              : `No ${c.name.toLowerCase()} yet. Choose New item to add the first one; it stays a draft, hidden from your site, until you publish it.`}
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

function parseFilters(text: string): Filters {
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === "object" && Object.values(v).every((x) => typeof x === "string")) return v as Filters;
  } catch {
    // A kept view from an older build: no filters.
  }
  return {};
}

function plainPairs(q: Record<string, unknown>): [string, string][] {
  return Object.entries(q).flatMap(([k, v]) => (v === undefined || v === null || typeof v === "object" ? [] : [[k, String(v)]]));
}

/** The media entries of the image and gallery columns of the rows shown: one call per page of the table. */
function useThumbnails(c: Collection | undefined, columns: readonly string[], items: readonly Item[]): ReadonlyMap<string, MediaEntry> {
  const imageKeys = (c?.fields ?? [])
    .filter((f) => (f.type === "image" || f.type === "gallery") && columns.includes(f.key))
    .map((f) => f.key);
  // A gallery's cell shows its first image only.
  const firstOf = (v: unknown) => (Array.isArray(v) ? (v[0] as unknown) : v);
  const ids = [
    ...new Set(items.flatMap((i) => imageKeys.map((k) => firstOf(i.data[k])).filter((v): v is string => typeof v === "string"))),
  ];
  const key = ids.join(",");
  const { data } = useLoad(
    () =>
      ids.length
        ? call(client.GET("/sites/{siteId}/media", { params: { path: inSite(), query: { ids: key, limit: 100 } } })).then((r) => r.media)
        : Promise.resolve([] as MediaEntry[]),
    [key],
  );
  return new Map((data ?? []).map((m) => [m.mediaId, m]));
}

function Cell(props: { collection: Collection; column: string; item: Item; media: ReadonlyMap<string, MediaEntry> }) {
  const { item: i, column } = props;
  const field: FieldDef | undefined = props.collection.fields.find((f) => f.key === column);
  if (field) return <FieldCell field={field} value={i.data[column]} media={props.media} />;
  if (column === "status") return <span class={`badge ${i.status}${i.pendingChanges ? " pending" : ""}`}>{statusWords(i)}</span>;
  if (column === "slug") return <code>{i.slug}</code>;
  return (
    <>
      {when(i.updatedAt)}
      {/* The column (and its sort) is the live version's; pending changes say when they were saved. */}
      {i.pendingChanges && <span class="muted block">changes saved {when(i.pendingChanges.updatedAt)}</span>}
    </>
  );
}

/** The site's secondary languages, for a collection with translated fields (none asked for otherwise). */
function useSecondaries(c: Collection | undefined): string[] {
  const translated = Boolean(c?.fields.some((f) => f.localized && LOCALIZABLE.has(f.type)));
  const { data } = useLoad(
    () => (translated ? call(client.GET("/sites/{siteId}/locales", { params: { path: inSite() } })) : Promise.resolve(null)),
    [translated, site.value?.id],
  );
  return (data?.locales ?? []).filter((l) => !l.primary).map((l) => l.code);
}
