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
    case "number":
      return `    <span data-oc-field="${f.key}" data-oc-format="number"></span>`;
    case "decimal":
      return f.currency
        ? `    <span data-oc-field="${f.key}" data-oc-format="money:${f.currency}"></span>`
        : `    <span data-oc-field="${f.key}"></span>`;
    case "option":
      return `    <span data-oc-field="${f.key}" data-oc-format="label"></span>`;
    default:
      return `    <p data-oc-field="${f.key}"></p>`;
  }
}

/** The field the service names items by (sent as `titleField`): the widgets' heading and link text. */
const titleFieldOf = (c: Collection) => c.fields.find((f) => f.key === c.titleField);

function listWidget(c: Collection): string {
  const title = titleFieldOf(c);
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

/** The item page: one item, picked by the last part of the page's address (or data-oc-slug). */
function itemWidget(c: Collection): string {
  const title = titleFieldOf(c);
  const rest = c.fields.filter((f) => f !== title);
  return [
    `<article data-oc-item="${c.slug}">`,
    ...(title ? [`  <h1 data-oc-field="${title.key}">Title</h1>`] : []),
    ...rest.map((f) => bindingFor(f).slice(2)),
    `</article>`,
  ].join("\n");
}

function titleLine(c: Collection, indent: string): string {
  const title = titleFieldOf(c);
  return title
    ? `${indent}<a data-oc-link data-oc-field="${title.key}">Title</a>`
    : `${indent}<a data-oc-link data-oc-field="slug">Item</a>`;
}

function searchWidget(c: Collection): string {
  return [
    `<form data-oc-search="${c.slug}" data-oc-limit="8" role="search">`,
    `  <label>Search ${c.name.replace(/[<>&"]/g, "")} <input type="search" name="q"></label>`,
    `  <ul data-oc-results>`,
    `    <li>`,
    titleLine(c, "      "),
    `    </li>`,
    `    <li data-oc-empty hidden>No matches.</li>`,
    `  </ul>`,
    `</form>`,
  ].join("\n");
}

function relatedWidget(c: Collection): string {
  return [`<aside data-oc-related="${c.slug}" data-oc-limit="3">`, `  <article>`, titleLine(c, "    "), `  </article>`, `</aside>`].join(
    "\n",
  );
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
          <code tabIndex={0}>{s.token}</code> <Copy text={s.token} label="Copy public token" />
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
      <div class="card">
        <h2>3. Item pages: where the links of a list go</h2>
        <p>
          In a list, <code>data-oc-link</code> makes each item a link to <strong>the list page's folder plus the item's slug</strong>: on{" "}
          <code>https://example.com/recipes/</code> the item “tomato-soup” links to <code>https://example.com/recipes/tomato-soup</code>.
          That page has to exist, and show the item:
        </p>
        <ul>
          <li>
            <strong>With the SEO Engine plan</strong>, the service serves every item page itself from your captured page (SEO Engine
            screen), through your custom domain or reverse proxy: nothing else to do.
          </li>
          <li>
            <strong>On a static site</strong> (a site builder, Cloudflare Pages, Netlify, GitHub Pages), make one page, for example{" "}
            <code>/recipes/item.html</code>, holding the item widget below, and tell the host to answer every address under the folder with
            it. Cloudflare Pages and Netlify read a <code>_redirects</code> file:
          </li>
        </ul>
        {first && (
          <CodeBlock
            code={`/recipes/*  /recipes/item.html  200`.replaceAll("recipes", first.slug)}
            label="_redirects (Cloudflare Pages, Netlify)"
          />
        )}
        <p>
          The item widget reads the item's slug from the last part of the address (or from <code>data-oc-slug="…"</code> if you write one
          page per item). Without such a page the links lead to your host's “not found” page.
        </p>
        {(collections.value ?? []).map((c) => (
          <CodeBlock key={c.slug} code={itemWidget(c)} label={`Item page widget for ${c.name}`} />
        ))}
      </div>
      <div class="card">
        <h2>4. Search and related items</h2>
        {s.flags.aiSearch ? (
          <>
            <p>
              A search box that finds items by meaning as visitors type; the first element inside <code>data-oc-results</code> is the
              template of a result. Results link to item pages like a list does.
            </p>
            {first && <CodeBlock code={searchWidget(first)} label={`Search widget for ${first.name}`} />}
            <p>On an item page, the items closest in meaning to the one shown (never the item itself):</p>
            {first && <CodeBlock code={relatedWidget(first)} label={`Related items widget for ${first.name}`} />}
          </>
        ) : (
          <p class="muted">
            Search by meaning (<code>data-oc-search</code>) and related items (<code>data-oc-related</code>) come with the Pro plan.
          </p>
        )}
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
