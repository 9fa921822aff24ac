/**
 * The SEO Engine's rich results card: what each item page tells search engines it is (a
 * product, a job, an event…), which field fills each property Google reads, and which items
 * cannot show as a rich result yet, with the field to fill. Saved through
 * PUT /sites/{siteId}/ssr/rich-results; the service proposes the type and fields until then.
 */
import { useEffect, useState } from "preact/hooks";
import { call, client } from "../../api";
import { href } from "../../router";
import { can, collections, inSite, site } from "../../site-state";
import type { Field, RichResultsReport } from "../../types";
import { ErrorNotice, Notice } from "../../ui";
import { useForm } from "../../use-form";

type SchemaType = RichResultsReport["type"];

const TYPE_NAMES: Record<SchemaType, string> = {
  Article: "Article",
  BlogPosting: "Blog post",
  NewsArticle: "News article",
  Product: "Product (price, availability)",
  JobPosting: "Job posting (Google job search)",
  Event: "Event",
  Recipe: "Recipe",
  FAQPage: "Question and answer (FAQ)",
  none: "Nothing (breadcrumbs only)",
};

/** What a rich result of each type is called in a sentence ("can show as a product"). */
const RESULT_NAMES: Record<SchemaType, string> = {
  Article: "an article",
  BlogPosting: "a blog post",
  NewsArticle: "a news article",
  Product: "a product",
  JobPosting: "a job posting",
  Event: "an event",
  Recipe: "a recipe",
  FAQPage: "a question and answer",
  none: "",
};

export function RichResults(props: { capturedAt: string }) {
  const [report, setReport] = useState<RichResultsReport | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    call(client.GET("/sites/{siteId}/ssr/rich-results", { params: { path: inSite() } })).then((r) => setReport(r.richResults), setError);
  }, [props.capturedAt]);
  return (
    <div class="card">
      <h2>Rich results</h2>
      <p class="muted">
        Each item page tells search engines what it is, in structured data. Google can show products with their price and availability, jobs
        in its job search, events and recipes, when the properties it requires are filled.
      </p>
      <ErrorNotice error={error} />
      {report === null ? !error && <p class="muted">Checking your items…</p> : <Report report={report} onSaved={setReport} />}
    </div>
  );
}

function Report(props: { report: RichResultsReport; onSaved: (r: RichResultsReport) => void }) {
  const r = props.report;
  const s = site.value!;
  const fields = collections.value?.find((c) => c.slug === r.collection)?.fields ?? [];
  const editable = can("seo.manage");
  const initial = {
    type: r.type,
    fields: Object.fromEntries(r.properties.map((p) => [p.path, p.field ?? ""])),
    expiredNoindex: r.expiredNoindex,
  };
  const form = useForm(
    initial,
    async (v) => {
      // A new type's properties are not on screen yet: it is saved alone and its fields proposed.
      const body = v.type === r.type ? v : { type: v.type, expiredNoindex: v.expiredNoindex };
      return (await call(client.PUT("/sites/{siteId}/ssr/rich-results", { params: { path: inSite() }, body }))).richResults;
    },
    { onSaved: props.onSaved },
  );
  useEffect(() => form.reset(initial), [r]);
  const sameType = form.values.type === r.type;
  const { total, checked, eligible, expired } = r.items;
  const ends = ENDS[form.values.type];
  return (
    <form onSubmit={form.onSubmit}>
      {r.type !== "none" && checked > 0 && (
        <Notice kind={eligible === checked ? "ok" : "info"}>
          {eligible} of {checked} published item{checked === 1 ? "" : "s"} can show as {RESULT_NAMES[r.type]}
          {checked < total ? ` (the newest ${checked} of ${total} checked)` : ""}.
          {expired > 0 && ends && ` ${expired} ${expired === 1 ? "has" : "have"} ${ends.past}.`}
        </Notice>
      )}
      <div class="field">
        <label for="rich-type">Describe each item as</label>
        <select
          id="rich-type"
          value={form.values.type}
          disabled={!editable}
          onChange={(e) => form.set("type", e.currentTarget.value as SchemaType)}
          aria-describedby="rich-type-hint"
        >
          {r.types.map((t) => (
            <option key={t} value={t}>
              {TYPE_NAMES[t]}
              {t === r.proposedType ? " (proposed from your fields)" : ""}
            </option>
          ))}
        </select>
        <p class="hint" id="rich-type-hint">
          {r.chosen ? "Chosen for this collection." : "Proposed from the collection's fields; save to keep it."}
        </p>
      </div>
      {sameType ? (
        r.properties.length > 0 && (
          <table class="rich-properties">
            <caption class="visually-hidden">Which field fills each property</caption>
            <thead>
              <tr>
                <th scope="col">Property</th>
                <th scope="col">Field</th>
                <th scope="col">Items without it</th>
              </tr>
            </thead>
            <tbody>
              {r.properties.map((p) => (
                <tr key={p.path}>
                  <th scope="row">
                    {p.label} <span class={p.need === "required" ? "badge required" : "badge"}>{p.need}</span>
                  </th>
                  <td>
                    <select
                      aria-label={`Field for ${p.label}`}
                      value={form.values.fields[p.path] ?? ""}
                      disabled={!editable}
                      onChange={(e) => form.set("fields", { ...form.values.fields, [p.path]: e.currentTarget.value })}
                    >
                      <option value="">
                        {p.automatic
                          ? p.path.endsWith("Currency")
                            ? "Automatic (the price field's)"
                            : "Automatic (from the page)"
                          : "None"}
                      </option>
                      {fields
                        .filter((f: Field) => (p.accepts as readonly string[]).includes(f.type))
                        .map((f: Field) => (
                          <option key={f.key} value={f.key}>
                            {f.name ?? f.key}
                          </option>
                        ))}
                    </select>
                  </td>
                  <td class="num">{p.missingIn}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : (
        <p>Save to see the properties of {TYPE_NAMES[form.values.type]} and the field proposed for each.</p>
      )}
      {ends && (
        <label class="check">
          <input
            type="checkbox"
            checked={form.values.expiredNoindex}
            disabled={!editable}
            onChange={(e) => form.set("expiredNoindex", e.currentTarget.checked)}
          />{" "}
          Keep {ends.what} out of search results (noindex) once {ends.when}
        </label>
      )}
      {form.failure && <Notice kind="error">{form.failure}</Notice>}
      {form.saved && <Notice kind="ok">Saved. Every item page follows at once.</Notice>}
      {editable && (
        <button type="submit" disabled={form.pending || !form.dirty}>
          Save rich results
        </button>
      )}
      {r.notEligible.length > 0 && (
        <>
          <h3>Items that cannot show as a rich result yet</h3>
          <ul class="not-eligible">
            {r.notEligible.map((it) => (
              <li key={it.id}>
                <a href={href(s.id, "items", r.collection, it.id)}>{it.title}</a>: {whatToDo(r, fields, it)}
              </li>
            ))}
          </ul>
        </>
      )}
    </form>
  );
}

/** What ends an item's rich result, for the types that have one, in words. */
const ENDS: Partial<Record<SchemaType, { what: string; when: string; past: string }>> = {
  JobPosting: { what: "expired jobs", when: "their closing date has passed", past: "passed its closing date" },
  Event: { what: "past events", when: "they have ended", past: "ended" },
};

type Lacking = { missing: readonly string[]; expired: boolean };

/** What an item needs to show as a rich result: the fields to fill (named), or that it has expired. */
export function whatToDo(r: RichResultsReport, fields: readonly Field[], it: Lacking): string {
  const label = (path: string) => r.properties.find((p) => p.path === path)?.label ?? path;
  const fieldName = (key: string) => fields.find((f) => f.key === key)?.name ?? key;
  const fill = it.missing.map((m) => {
    const key = r.properties.find((p) => p.path === m)?.field ?? null;
    if (m === "datePosted" && !key) return `${label(m)} (comes with publishing)`;
    return key ? `${label(m)} (field “${fieldName(key)}”)` : `${label(m)} (choose its field under Rich results)`;
  });
  const parts = [
    ...(it.expired ? [`it has ${ENDS[r.type]?.past ?? "expired"}: change the date or unpublish it`] : []),
    ...(fill.length ? [`fill ${fill.join(", ")}`] : []),
  ];
  return parts.join("; ");
}

/** The crawler preview's verdict on one item: can it show as the type's rich result, and if not, why. */
export function ItemEligibility(props: { itemId: string; collection: string }) {
  const [r, setR] = useState<RichResultsReport | null>(null);
  useEffect(() => {
    setR(null);
    call(client.GET("/sites/{siteId}/ssr/rich-results", { params: { path: inSite(), query: { item: props.itemId } } })).then(
      (x) => setR(x.richResults),
      () => setR(null),
    );
  }, [props.itemId]);
  const item = r?.item;
  if (!r || !item || r.type === "none") return null;
  const fields = collections.value?.find((c) => c.slug === props.collection)?.fields ?? [];
  return (
    <>
      <h3>Rich result</h3>
      {item.eligible ? (
        <Notice kind="ok">Eligible: Google can show this page as {RESULT_NAMES[r.type]}.</Notice>
      ) : (
        <Notice kind="error">
          Not eligible as {RESULT_NAMES[r.type]} yet: {whatToDo(r, fields, item)}.
        </Notice>
      )}
    </>
  );
}
