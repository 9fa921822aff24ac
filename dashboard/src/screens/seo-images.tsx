import { useEffect, useState } from "preact/hooks";
import { call, client } from "../api";
import type { Capture } from "../capture-types";
import { headFacts } from "../head-facts";
import { useBrokenImages } from "../image-check";
import { itemTitle } from "../item-title";
import { href } from "../router";
import { collections, inSite, site } from "../site-state";
import { Notice } from "../ui";
import { renderedPreview } from "./seo-preview";

/** How many published items the check looks at: one page of the dashboard API. */
const ITEMS_CHECKED = 100;

interface Shown {
  url: string;
  /** What shows it: the list page, or an item (its title and editor address). */
  page: { title: string; to: string } | null;
}

/**
 * The SEO Engine's image check: every social image its pages send crawlers (the list page's
 * og:image and each published item's image field) is requested as a card renderer would, and a
 * broken one is named with the item to fix, before anyone shares a link to it.
 */
export function SocialImages(props: { capture: Capture }) {
  const c = props.capture;
  const s = site.value!;
  const collection = collections.value?.find((x) => x.slug === c.collection);
  const imageField = c.seo.imageField ?? collection?.seoDefaults.imageField ?? undefined;
  const [shown, setShown] = useState<Shown[] | null>(null);
  const [more, setMore] = useState(false);
  useEffect(() => {
    let live = true;
    void (async () => {
      const out: Shown[] = [];
      if (c.showsList) {
        // The list page's og:image is whatever the rendered page says: read it from the preview.
        const html = await renderedPreview().then(
          (r) => r.html,
          () => "",
        );
        const og = headFacts(html).og["og:image"];
        if (og) out.push({ url: og, page: null });
      }
      if (collection && imageField) {
        const [items, media] = await Promise.all([
          call(
            client.GET("/sites/{siteId}/collections/{slug}/items", {
              params: { path: inSite({ slug: collection.slug }), query: { status: "published", limit: ITEMS_CHECKED } },
            }),
          ),
          call(client.GET("/sites/{siteId}/media", { params: { path: inSite(), query: { limit: 100 } } })).catch(() => null),
        ]);
        setMore(items.total > items.items.length);
        for (const item of items.items) {
          const stored = item.data[imageField];
          // A gallery's social image is its first.
          const v: unknown = Array.isArray(stored) ? stored[0] : stored;
          const url =
            typeof v === "string"
              ? media?.media.find((m) => m.mediaId === v)?.url
              : v && typeof v === "object" && "url" in v && typeof v.url === "string"
                ? v.url
                : undefined;
          if (url) out.push({ url, page: { title: itemTitle(collection, item), to: href(s.id, "items", collection.slug, item.id) } });
        }
      }
      if (live) setShown(out);
    })().catch(() => live && setShown([]));
    return () => {
      live = false;
    };
  }, [c.capturedAt, c.collection, imageField]);
  const urls = [...new Set((shown ?? []).map((x) => x.url))];
  const broken = useBrokenImages(urls);
  const bad = shown && broken ? shown.filter((x) => broken.includes(x.url)) : [];
  return (
    <div class="card">
      <h2>Social images</h2>
      <p class="muted">
        The picture crawlers and chat apps show for your pages{imageField ? ` (the list page's, and each item's “${imageField}”)` : ""}.
        Each address is requested here, as they would request it.
      </p>
      {shown === null || broken === null ? (
        <p class="muted">Checking {shown ? `${urls.length} image address${urls.length === 1 ? "" : "es"}` : "your pages' images"}…</p>
      ) : bad.length ? (
        <Notice kind="error">
          <p>
            {bad.length} social image{bad.length === 1 ? " does" : "s do"} not load: shared links show a broken picture. Fix the image
            address, or upload the image again.
          </p>
          <ul>
            {bad.map((x) => (
              <li key={`${x.url} ${x.page?.to ?? ""}`}>
                {x.page ? <a href={x.page.to}>{x.page.title}</a> : "The list page"}: <code>{x.url}</code>
              </li>
            ))}
          </ul>
        </Notice>
      ) : urls.length ? (
        <Notice kind="ok">
          All {urls.length} social image address{urls.length === 1 ? "" : "es"} load{urls.length === 1 ? "s" : ""}
          {more ? ` (the first ${ITEMS_CHECKED} published items checked)` : ""}.
        </Notice>
      ) : (
        <p class="muted">
          No page has a social image yet
          {c.collection === null
            ? ": the captured collection was deleted. Capture a page that shows one of your collections."
            : imageField
              ? "."
              : ": the collection has no image field."}
        </p>
      )}
    </div>
  );
}
