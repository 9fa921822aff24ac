import { useState } from "preact/hooks";
import { call, client } from "../api";
import type { Capture } from "../capture-types";
import { DESCRIPTION_MAX, type HeadFacts, headFacts, headWarnings, TITLE_MAX } from "../head-facts";
import { useBrokenImages } from "../image-check";
import { itemTitle } from "../item-title";
import { collections, inSite } from "../site-state";
import { ErrorNotice, Field, Notice } from "../ui";
import { useLoad } from "../use-load";
import { ItemEligibility } from "./seo-engine/rich-results";

/**
 * The rendered page as the preview serves it (HTML, whatever its status: a 404 page is shown too),
 * and its address for the preview frame.
 */
export async function renderedPreview(item?: string): Promise<{ html: string; status: number; url: string }> {
  const { data, error, response } = await client.GET("/sites/{siteId}/ssr/preview", {
    params: { path: inSite(), query: item ? { item } : {} },
    parseAs: "text",
  });
  const url = new URL(response.url);
  return { html: data ?? (typeof error === "string" ? error : ""), status: response.status, url: url.pathname + url.search };
}

/**
 * The rendered page exactly as the service would send it to a crawler, for the list or any
 * item (drafts included: the preview is only reachable with a session, never cached, never public).
 */
export function Preview(props: { capture: Capture }) {
  const c = props.capture;
  const collection = collections.value?.find((x) => x.slug === c.collection);
  // A capture whose collection was deleted has no items to offer: asking would only answer 404.
  const slug = c.collection;
  const items = useLoad(
    () =>
      slug
        ? call(client.GET("/sites/{siteId}/collections/{slug}/items", { params: { path: inSite({ slug }), query: { limit: 100 } } }))
        : Promise.resolve(null),
    [slug],
  );
  const [choice, setChoice] = useState(c.showsList ? "" : "");
  const [shown, setShown] = useState<{ url: string; facts: HeadFacts; status: number; item: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [n, setN] = useState(0);

  const show = async () => {
    setError(null);
    try {
      const { html, status, url } = await renderedPreview(choice || undefined);
      setShown({ url, facts: headFacts(html), status, item: choice });
      setN((x) => x + 1);
    } catch (err) {
      setError(err);
    }
  };
  const f = shown?.facts;
  // The social image and every image of the page body are requested, as crawlers and browsers would.
  const checked = f ? [...new Set([f.og["og:image"] ?? "", ...f.images].filter(Boolean))] : [];
  const broken = useBrokenImages(checked);
  const warnings = [
    // A list widget the content API refuses renders empty: the page looks fine in its head, not in its body.
    ...(f ? c.warnings.map((w) => w.message) : []),
    ...(f ? headWarnings(f) : []),
    ...(broken ?? []).map((u) =>
      u === f?.og["og:image"]
        ? `The social image does not load (${u}): shared links show a broken picture.`
        : `An image on the page does not load (${u}): visitors see its alt text instead.`,
    ),
  ];
  return (
    <div class="card preview-card">
      <h2>Preview, as crawlers see it</h2>
      <p class="muted">
        The server-rendered page and what its head says, before anyone else sees it. Previewing a draft never publishes it.
      </p>
      <div class="toolbar">
        <Field label="Page to preview">
          {(id) => (
            <select id={id} value={choice} onChange={(e) => setChoice(e.currentTarget.value)}>
              <option value="">{c.showsList ? "The list page" : "The list page (not shown: item template only)"}</option>
              {items.data?.items.map((i) => (
                <option key={i.id} value={i.id}>
                  {itemTitle(collection, i)}
                  {i.status === "draft" ? " (draft)" : ""}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="button" onClick={() => void show()}>
          {shown ? "Reload preview" : "Show preview"}
        </button>
      </div>
      <ErrorNotice error={error} />
      {shown && f && (
        <div class="preview-grid">
          <iframe key={n} src={shown.url} sandbox="" title="Rendered page preview" class="preview-frame" />
          <div class="head-facts">
            {shown.status !== 200 && <Notice kind="error">This page answers {shown.status}: visitors and crawlers get “not found”.</Notice>}
            {warnings.length > 0 ? (
              <Notice kind="error">
                <ul>
                  {warnings.map((w) => (
                    <li key={w}>{w}</li>
                  ))}
                </ul>
              </Notice>
            ) : broken === null ? (
              <p class="muted">
                Checking that the page's {checked.length} image address{checked.length === 1 ? "" : "es"} load…
              </p>
            ) : (
              <Notice kind="ok">
                Title, description, canonical URL and social image are all in place
                {checked.length > 0 && `, and ${checked.length === 1 ? "its image loads" : `all ${checked.length} image addresses load`}`}.
              </Notice>
            )}
            <h3>Search result</h3>
            <div class="snippet" aria-label="Search result snippet">
              <p class="snippet-url">{f.canonical || "(no canonical URL)"}</p>
              <p class="snippet-title">{f.title || "(no title)"}</p>
              <p class="snippet-desc">{f.description || "(no description)"}</p>
            </div>
            <p class="muted small-text">
              Title {f.title.length}/{TITLE_MAX} characters · description {f.description.length}/{DESCRIPTION_MAX}
            </p>
            <h3>Social card</h3>
            <div class="social" aria-label="Social card">
              {f.og["og:image"] && <img src={f.og["og:image"]} alt={f.og["og:image:alt"] ?? ""} />}
              <p class="snippet-title">{f.og["og:title"] || f.twitter["twitter:title"] || "(no og:title)"}</p>
              <p class="snippet-desc">{f.og["og:description"] || "(no og:description)"}</p>
              <p class="muted small-text">
                {f.twitter["twitter:card"] ? `Twitter card: ${f.twitter["twitter:card"]}` : "No Twitter card"} · og:type{" "}
                {f.og["og:type"] ?? "—"}
              </p>
            </div>
            <h3>Canonical URL</h3>
            <p>
              <code>{f.canonical || "(none)"}</code>
            </p>
            {shown.item && c.collection && <ItemEligibility key={n} itemId={shown.item} collection={c.collection} />}
            <h3>Structured data (JSON-LD)</h3>
            {f.jsonLd.length === 0 && <p>No JSON-LD blocks.</p>}
            {f.jsonLd.map((j, i) => (
              <details key={i}>
                <summary>
                  {j.type}
                  {j.valid ? "" : " — not valid JSON"}
                </summary>
                <pre tabIndex={0}>{j.text}</pre>
              </details>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}
