/** Where the rendered pages are: the list page, an item page, the sitemap and feeds. */
import type { Capture } from "../../capture-types";
import { hostnameOrigin } from "../../hostname-url";
import { collections } from "../../site-state";
import { when } from "../../ui";

export function Addresses(props: { capture: Capture; hostname: string | null }) {
  const c = props.capture;
  const origin = props.hostname ? hostnameOrigin(props.hostname) : new URL(c.publicUrl).origin;
  const base = props.hostname ? "/" : c.basePath;
  const first = collections.value?.find((x) => x.slug === c.collection);
  const docs = ["sitemap.xml", "rss.xml", "feed.json"];
  const last = c.documents.lastBuild;
  return (
    <div class="card">
      <h2>Your rendered pages</h2>
      <p class="muted">
        {props.hostname
          ? `On your custom domain ${props.hostname}.`
          : "Through your reverse proxy (or the page's own site) at the public URL."}
      </p>
      <ul>
        {c.showsList && (
          <li>
            List page: <code>{`${origin}${base}`}</code>
          </li>
        )}
        <li>
          An item page: <code>{`${origin}${base}<item-slug>`}</code>
          {first && <span class="muted"> (the item's slug from {first.name})</span>}
        </li>
        {docs.map((d) => (
          <li key={d}>
            <code>{`${origin}${base}${d}`}</code>
          </li>
        ))}
      </ul>
      <p class="muted">
        Sitemap and feeds{" "}
        {last ? `last rebuilt ${when(last.at)} (${last.urls} addresses, ${last.feedItems} feed items)` : "are rebuilt after every publish"}.
      </p>
    </div>
  );
}
