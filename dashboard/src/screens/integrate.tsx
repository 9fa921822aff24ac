import { ProxyGuide } from "../proxy-guide";
import { collections, site } from "../site-state";
import type { Collection, Field } from "../types";
import { CodeBlock, Copy, Heading } from "../ui";

const origin = location.origin;

/** One element per field, bound with the same rules the embed script and the server apply (docs/binding-rules.md). */
function bindingFor(f: Field): string {
  switch (f.type) {
    case "image":
      return `    <img data-oc-field="${f.key}" src="" alt="" />`;
    case "video":
      return `    <video data-oc-field="${f.key}" controls></video>`;
    case "link":
      return `    <a data-oc-field="${f.key}">Visit</a>`;
    case "richText":
      return `    <div data-oc-field="${f.key}"></div>`;
    case "date":
      return `    <time data-oc-field="${f.key}" data-oc-attr-datetime="${f.key}"></time>`;
    default:
      return `    <p data-oc-field="${f.key}"></p>`;
  }
}

function listWidget(c: Collection): string {
  const title = c.fields.find((f) => f.type === "text");
  const rest = c.fields.filter((f) => f !== title);
  const lines = [
    `<div data-oc-list="${c.slug}" data-oc-limit="12">`,
    `  <article>`,
    ...(title
      ? [`    <a data-oc-link><h2 data-oc-field="${title.key}">Title</h2></a>`]
      : [`    <a data-oc-link data-oc-field="slug">Item</a>`]),
    ...rest.map(bindingFor),
    `  </article>`,
    `  <p data-oc-empty hidden>Nothing here yet.</p>`,
    `</div>`,
  ];
  return lines.join("\n");
}

export function Integrate() {
  const s = site.value!;
  const embed = `<script src="${origin}/embed.js" data-oc-token="${s.token}" defer></script>`;
  const first = collections.value?.[0];
  const curl = first
    ? [
        `curl '${origin}/v1/${s.token}/collections/${first.slug}/items?limit=5'`,
        `curl '${origin}/v1/${s.token}/collections/${first.slug}/items/<item-slug>'`,
        ...(s.features.advancedLists
          ? [`curl '${origin}/v1/${s.token}/collections/${first.slug}/items?search=hello&sort=-publishedAt'`]
          : []),
        ...(s.flags.aiSearch ? [`curl '${origin}/v1/${s.token}/search?q=how+to+start'`] : []),
      ].join("\n")
    : "";
  return (
    <section>
      <Heading>Integrate</Heading>
      <div class="card">
        <h2>Your public CMS token</h2>
        <p>
          Pages use this token to read your <strong>published</strong> items. It is not a secret: it appears in your pages. Your admin key,
          which changes content, is never needed on your site.
        </p>
        <p class="token">
          <code>{s.token}</code> <Copy text={s.token} label="Copy public token" />
        </p>
      </div>
      <div class="card">
        <h2>1. Add the embed script</h2>
        <p>Paste this once into your site builder's custom code for the page head (or before the closing body tag).</p>
        <CodeBlock code={embed} label="Embed script tag" />
      </div>
      <div class="card">
        <h2>2. Add a list widget</h2>
        <p>
          Paste a block like this where the items should appear, then style it in your site builder. The first element is the template
          repeated for every item; <code>data-oc-field</code> names the field each element shows.
        </p>
        {(collections.value ?? []).map((c) => (
          <CodeBlock key={c.slug} code={listWidget(c)} label={`List widget for ${c.name}`} />
        ))}
        {collections.value?.length === 0 && <p class="muted">Create a collection first; its widget appears here.</p>}
      </div>
      {curl && (
        <div class="card">
          <h2>Content API</h2>
          <p>Developers can read the same items as JSON.</p>
          <CodeBlock code={curl} label="Content API examples" />
        </div>
      )}
      <div class="card">
        <h2>Serve rendered pages under your own domain (reverse proxy)</h2>
        <p>
          With the SEO Engine plan, pages can be rendered on the server. If your domain's DNS is on Cloudflare, deploy this Worker in your
          own Cloudflare account; it forwards a path of your site (for example <code>/blog/</code>) to this service with your token.
        </p>
        <ProxyGuide token={s.token} />
      </div>
    </section>
  );
}
