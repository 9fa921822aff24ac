/** Node-side helpers for the browser tests: the service's HTTP API, the page server, Chromium. */
import { type Browser, type Page, chromium } from "playwright-core";
import sharp from "sharp";
import { inject } from "vitest";

export const service = () => inject("service");
export const pageServer = () => inject("pageServer");
const OPERATOR = "browser-test-operator";

export async function api<T = Record<string, unknown>>(method: string, path: string, auth: string, body?: unknown): Promise<T> {
  const res = await fetch(`${service()}${path}`, {
    method,
    headers: { authorization: `Bearer ${auth}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

export interface Site {
  id: string;
  token: string;
  adminKey: string;
}

/** An SEO Engine blog whose posts use every field type, with published items for every binding rule. */
export async function blogSite(): Promise<Site> {
  const { site } = await api<{ site: Site }>("POST", "/sites", OPERATOR, { name: "Parity", plan: "seo_engine" });
  await api("PUT", `/sites/${site.id}/collections/authors`, site.adminKey, {
    name: "Authors",
    fields: [{ key: "name", type: "text", indexed: true }],
  });
  await api("PUT", `/sites/${site.id}/collections/posts`, site.adminKey, {
    name: "Posts",
    fields: [
      { key: "title", type: "text", indexed: true, required: true },
      { key: "summary", type: "text" },
      { key: "body", type: "richText" },
      { key: "views", type: "number" },
      { key: "featured", type: "boolean" },
      { key: "date", type: "date", indexed: true },
      { key: "website", type: "link" },
      { key: "cover", type: "image" },
      { key: "author", type: "reference", collection: "authors" },
      { key: "coauthors", type: "references", collection: "authors" },
      { key: "notes", type: "text" },
    ],
  });
  for (const [slug, name] of [
    ["ada", "Ada <Lovelace>"],
    ["grace", "Grace Hopper"],
  ]) {
    await api("POST", `/sites/${site.id}/collections/authors/items`, site.adminKey, { slug, publish: true, data: { name } });
  }
  return site;
}

export const POSTS = [
  {
    slug: "hello-world",
    publish: true,
    data: {
      title: `Hello & <World> "quoted"`,
      summary: "The first post",
      body: `<p>Rich <strong>text</strong> &amp; <a href="https://example.com/">a link</a></p><ul><li>one</li><li>two</li></ul>`,
      views: 1234,
      featured: true,
      date: "2024-05-01T09:30:00Z",
      website: "https://example.com/a?b=1&c=2",
      cover: { url: "https://cdn.example.com/cover.jpg", alt: "A cover" },
      author: "ada",
      coauthors: ["ada", "grace"],
      notes: "javascript:alert(1)",
    },
  },
  {
    slug: "second-post",
    publish: true,
    data: {
      title: "Second post",
      body: "<p>Plain</p>",
      date: "2024-03-09",
      cover: { url: "https://cdn.example.com/2.jpg" },
      views: 0,
      featured: false,
    },
  },
  { slug: "a-draft", data: { title: "Draft only" } },
];

export async function addPosts(site: Site, posts = POSTS): Promise<void> {
  for (const p of posts) await api("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, p);
}

/** A JPEG photo on the page server at `path` (a shop's photos live on its own host, as a customer's do); its URL. */
export async function putPhoto(path: string, background = "#8a5a2b"): Promise<string> {
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background } })
    .jpeg()
    .toBuffer();
  const res = await fetch(`${pageServer()}/__pages${path}`, { method: "PUT", headers: { "x-content-type": "image/jpeg" }, body: jpeg });
  if (res.status !== 204) throw new Error(`page server refused ${path}`);
  return `${pageServer()}${path}`;
}

export async function putPage(path: string, html: string): Promise<string> {
  const res = await fetch(`${pageServer()}/__pages${path}`, { method: "PUT", body: html });
  if (res.status !== 204) throw new Error(`page server refused ${path}`);
  return `${pageServer()}${path}`;
}

export async function renderedByServer(site: Site, path: string): Promise<{ status: number; html: string }> {
  const res = await fetch(`${service()}${path}`, { headers: { "x-service-token": site.token } });
  return { status: res.status, html: await res.text() };
}

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

/**
 * The DOM under `selector`, normalised: elements with sorted attributes,
 * text with whitespace collapsed, comments dropped. Two trees that a browser
 * would show the same way normalise to the same string. Search and related widgets
 * are reduced to a marker: they render in the browser only, by design.
 */
export function normalisedDom(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (roots) => {
    // Search and related widgets are client-side on every page (the server leaves them as captured).
    const clientOnly = "[data-oc-search],[data-oc-related]";
    const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
    const walk = (node: Node): string => {
      if (node.nodeType === Node.TEXT_NODE) return esc((node.textContent ?? "").replace(/\s+/g, " ").trim());
      if (node.nodeType !== Node.ELEMENT_NODE) return "";
      const el = node as Element;
      if (el.matches(clientOnly)) return `<${el.tagName.toLowerCase()} client-only>`;
      const attrs = el
        .getAttributeNames()
        .sort()
        .map((n) => ` ${n}="${esc(el.getAttribute(n) ?? "")}"`)
        .join("");
      const inner = Array.from(el.childNodes).map(walk).filter(Boolean).join("");
      return `<${el.tagName.toLowerCase()}${attrs}>${inner}</${el.tagName.toLowerCase()}>`;
    };
    return roots.map(walk);
  });
}
