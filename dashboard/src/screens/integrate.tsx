import { useState } from "preact/hooks";
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
    case "gallery":
      // The container repeats its first element child once per image; `@` is the image itself.
      return `    <div data-oc-field="${f.key}">\n      <img data-oc-field="@" src="" alt="" />\n    </div>`;
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
    case "boolean":
      // A switch shows its name when it is on (true / false as text reads like a bug on a page).
      return `    <span data-oc-if="${f.key}">${(f.name ?? f.key).replace(/[<>&"]/g, "")}</span>`;
    default:
      return `    <p data-oc-field="${f.key}"></p>`;
  }
}

/** The field the service names items by (sent as `titleField`): the widgets' heading and link text. */
const titleFieldOf = (c: Collection) => c.fields.find((f) => f.key === c.titleField);

/**
 * Where the site is hosted decides the address of an item page (docs/binding-rules.md, "Item
 * pages"): the list page's folder plus the slug needs a host that answers every address under the
 * folder with one page; without rewrites, one page takes the slug in its query.
 */
export type Hosting = "seo" | "rewrites" | "webflow" | "static";

/** The item page a host without rewrites serves, and the `data-oc-link` that leads there. */
function itemPageOf(c: Collection, hosting: Hosting): { page: string; link: string } {
  if (hosting === "webflow") return { page: `/${c.slug}/item`, link: `/${c.slug}/item?slug={slug}` };
  if (hosting === "static") return { page: `/${c.slug}/item.html`, link: `/${c.slug}/item.html?slug={slug}` };
  return { page: `/${c.slug}/item.html`, link: "" };
}

const linkAttr = (c: Collection, hosting: Hosting) => {
  const { link } = itemPageOf(c, hosting);
  return link ? `data-oc-link="${link}"` : "data-oc-link";
};

function listWidget(c: Collection, hosting: Hosting): string {
  const title = titleFieldOf(c);
  // A card leads with its picture, as a shop's or a blog's does: the first image field, then the title.
  const picture = c.fields.find((f) => f.type === "image" && f !== title);
  const rest = c.fields.filter((f) => f !== title && f !== picture);
  const link = linkAttr(c, hosting);
  const lines = [
    `<div data-oc-list="${c.slug}" data-oc-limit="12">`,
    `  <article>`,
    ...(picture ? [bindingFor(picture)] : []),
    ...(title ? [`    <a ${link}><h2 data-oc-field="${title.key}">Title</h2></a>`] : [`    <a ${link} data-oc-field="slug">Item</a>`]),
    ...rest.map(bindingFor),
    `  </article>`,
    `  <p data-oc-empty hidden>Nothing here yet.</p>`,
    `</div>`,
  ];
  return lines.join("\n");
}

/**
 * The item page: one item, named by the page's address (`?slug=`, `#slug` or its last part) or by
 * data-oc-slug. Its empty state is what a visitor sees when the address names no published item.
 */
function itemWidget(c: Collection): string {
  const title = titleFieldOf(c);
  const rest = c.fields.filter((f) => f !== title);
  const blocks = rest.filter((f) => BLOCK_TYPES.has(f.type));
  // Short values read as named facts ("Salary from: €45,000"); one without a value leaves no empty line.
  const facts = rest.filter((f) => !BLOCK_TYPES.has(f.type));
  const name = (f: Field) => (f.name ?? f.key).replace(/[<>&"]/g, "");
  const fact = (f: Field) =>
    f.type === "boolean"
      ? `    <div data-oc-if="${f.key}"><dt>${name(f)}</dt><dd>Yes</dd></div>`
      : `    <div data-oc-if="${f.key}"><dt>${name(f)}</dt><dd>${bindingFor(f)
          .trim()
          .replace(/^<p (.*)><\/p>$/, "<span $1></span>")}</dd></div>`;
  return [
    `<article data-oc-item="${c.slug}">`,
    ...(title ? [`  <h1 data-oc-field="${title.key}">Title</h1>`] : []),
    ...(facts.length ? ["  <dl>", ...facts.map(fact), "  </dl>"] : []),
    ...blocks.map((f) => bindingFor(f).slice(2)),
    `  <p data-oc-empty hidden>This item is not available. <a href="/${c.slug}/">See all</a></p>`,
    `</article>`,
  ].join("\n");
}

/**
 * A starting point for a page that has no styles of its own yet (a plain static host): the lists
 * as a grid of cards, an item page as its picture and named facts. Only the widgets' own
 * attributes are selected, so the site's stylesheet wins wherever it says anything.
 */
export const STARTER_STYLES = `<style>
  [data-oc-list] { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: 1.5rem; }
  [data-oc-list] > article { border: 1px solid #ddd; border-radius: 8px; padding: 1rem; }
  [data-oc-list] > article > * { display: block; margin: 0.25rem 0; }
  [data-oc-list] a { color: inherit; }
  [data-oc-list] h2 { font-size: 1.15rem; margin: 0.5rem 0 0; }
  [data-oc-list] img, [data-oc-item] img { display: block; width: 100%; height: auto; aspect-ratio: 4 / 3; object-fit: cover; border-radius: 6px; }
  [data-oc-item] { max-width: 48rem; margin: 0 auto; }
  [data-oc-item] img { max-height: 28rem; }
  [data-oc-item] dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
  [data-oc-item] dl > div { display: contents; }
  [data-oc-item] dt { font-weight: 600; }
  [data-oc-item] dd { margin: 0; }
</style>`;

/** Fields that fill a block of the page (media, rich text) rather than a line. */
const BLOCK_TYPES = new Set<Field["type"]>(["image", "video", "richText"]);

function titleLine(c: Collection, indent: string, hosting: Hosting): string {
  const title = titleFieldOf(c);
  const link = linkAttr(c, hosting);
  return title ? `${indent}<a ${link} data-oc-field="${title.key}">Title</a>` : `${indent}<a ${link} data-oc-field="slug">Item</a>`;
}

function searchWidget(c: Collection, hosting: Hosting): string {
  return [
    `<form data-oc-search="${c.slug}" data-oc-limit="8" role="search">`,
    `  <label>Search ${c.name.replace(/[<>&"]/g, "")} <input type="search" name="q"></label>`,
    `  <ul data-oc-results>`,
    `    <li>`,
    titleLine(c, "      ", hosting),
    `    </li>`,
    `    <li data-oc-empty hidden>No matches.</li>`,
    `  </ul>`,
    `</form>`,
  ].join("\n");
}

function relatedWidget(c: Collection, hosting: Hosting): string {
  return [
    `<aside data-oc-related="${c.slug}" data-oc-limit="3">`,
    `  <article>`,
    titleLine(c, "    ", hosting),
    `  </article>`,
    `</aside>`,
  ].join("\n");
}

const HOSTS: readonly (readonly [Hosting, string, string])[] = [
  ["seo", "The SEO Engine serves my pages", "Through your custom domain or reverse proxy, every item has its own page."],
  ["webflow", "Webflow", "Or another site builder whose pages cannot take any address under a folder."],
  ["rewrites", "A static host with rewrites", "Cloudflare Pages, Netlify, or a server you configure."],
  ["static", "A static host without rewrites", "GitHub Pages, an S3 bucket, any plain web server."],
];

function HostingChoice(props: { value: Hosting; onChange: (h: Hosting) => void; seo: boolean }) {
  return (
    <fieldset class="hosting">
      <legend>Where is your site hosted?</legend>
      {HOSTS.filter(([h]) => h !== "seo" || props.seo).map(([h, name, hint]) => (
        <label key={h} class="choice">
          <input type="radio" name="hosting" value={h} checked={props.value === h} onChange={() => props.onChange(h)} />
          <span>
            <strong>{name}</strong> <span class="muted">{hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** What to set up on the chosen host so the links of a list open the item page. */
function ItemPageSteps(props: { hosting: Hosting; first: Collection | undefined }) {
  const c = props.first;
  const page = c ? itemPageOf(c, props.hosting).page : "/recipes/item.html";
  switch (props.hosting) {
    case "seo":
      return (
        <p>
          The service serves every item page itself from your captured page (SEO Engine screen), through your custom domain or reverse
          proxy, at the list page's address plus the item's slug (<code>/{c?.slug ?? "recipes"}/tomato-soup</code>): nothing else to do.
        </p>
      );
    case "webflow":
      return (
        <p>
          Add a static page at <code>{page}</code> (a page named “item” in a folder named “{c?.slug ?? "recipes"}”) and paste the item
          widget below into an Embed element on it. The list's links open it with the item's slug in the address (
          <code>{page}?slug=tomato-soup</code>).
        </p>
      );
    case "static":
      return (
        <p>
          Upload one page, <code>{page}</code>, holding the item widget below. The list's links open it with the item's slug in the address
          (<code>{page}?slug=tomato-soup</code>); no server setting is needed.
        </p>
      );
    default:
      return (
        <>
          <p>
            The list's links go to the list page's folder plus the item's slug (<code>/{c?.slug ?? "recipes"}/tomato-soup</code>). Make one
            page, <code>{page}</code>, holding the item widget below, and tell the host to answer every address under the folder with it.
            Cloudflare Pages and Netlify read a <code>_redirects</code> file:
          </p>
          {c && <CodeBlock code={`/${c.slug}/*  ${page}  200`} label="_redirects (Cloudflare Pages, Netlify)" />}
        </>
      );
  }
}

export function Integrate() {
  const s = site.value!;
  const [hosting, setHosting] = useState<Hosting>(s.features.serverRendering ? "seo" : "rewrites");
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
        <h2>2. Item pages: where the links of a list go</h2>
        <p>
          Each item of a list links to a page that shows that one item. Which address works depends on your host: the snippets below follow
          your answer.
        </p>
        <HostingChoice value={hosting} onChange={setHosting} seo={s.features.serverRendering} />
        <ItemPageSteps hosting={hosting} first={first} />
        {hosting !== "seo" && (
          <>
            <p>
              The item widget reads the item's slug from the page's address: <code>?slug=…</code>, <code>#…</code> or its last part (or from{" "}
              <code>data-oc-slug="…"</code> on a page made for one item). When the address names no published item, it shows its{" "}
              <code>data-oc-empty</code> element instead of the placeholders.
            </p>
            {(collections.value ?? []).map((c) => (
              <CodeBlock key={c.slug} code={itemWidget(c)} label={`Item page widget for ${c.name}`} />
            ))}
          </>
        )}
      </div>
      <div class="card">
        <h2>3. Add a list widget</h2>
        <p>
          Paste a block like this where the items should appear, then style it in your site builder. The first element is the template
          repeated for every item; <code>data-oc-field</code> names the field each element shows, and <code>data-oc-link</code> makes it a
          link to the item's page.
        </p>
        {(collections.value ?? []).map((c) => (
          <CodeBlock key={c.slug} code={listWidget(c, hosting)} label={`List widget for ${c.name}`} />
        ))}
        {collections.value?.length === 0 && <p class="muted">Create a collection first; its widget appears here.</p>}
        <p>
          A page without styles of its own yet (a plain HTML page) can start from these: lists as a grid of cards, an item page as its
          picture and named facts. Paste them into the page head; your site's own styles override them.
        </p>
        <CodeBlock code={STARTER_STYLES} label="Starter styles" />
      </div>
      <div class="card">
        <h2>4. Search and related items</h2>
        {s.flags.aiSearch ? (
          <>
            <p>
              A search box that finds items by meaning as visitors type; the first element inside <code>data-oc-results</code> is the
              template of a result. Results link to item pages like a list does.
            </p>
            {first && <CodeBlock code={searchWidget(first, hosting)} label={`Search widget for ${first.name}`} />}
            <p>On an item page, the items closest in meaning to the one shown (never the item itself):</p>
            {first && <CodeBlock code={relatedWidget(first, hosting)} label={`Related items widget for ${first.name}`} />}
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
