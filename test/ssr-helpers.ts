import { inject } from "vitest";
import { ORIGIN, type TestSite, addItem, call, callJson, expectStatus, newBlog } from "./helpers";
import { listPage } from "./fixtures/blog-pages";

export const pageServer = () => inject("pageServer");
let pageCounter = 0;

/** Stores a page on the customer-site server; returns its URL. Paths are unique per call unless given. */
export async function putPage(
  html: string | Uint8Array,
  opts: { path?: string; type?: string; status?: number; location?: string; bodyDelayMs?: number } = {},
): Promise<string> {
  const path = opts.path ?? `/p${++pageCounter}-${crypto.randomUUID().slice(0, 8)}/blog/`;
  const headers: Record<string, string> = {};
  if (opts.type) headers["x-content-type"] = opts.type;
  if (opts.status) headers["x-status"] = String(opts.status);
  if (opts.location) headers["x-location"] = opts.location;
  if (opts.bodyDelayMs) headers["x-body-delay-ms"] = String(opts.bodyDelayMs);
  const res = await fetch(`${pageServer()}/__pages${path}`, { method: "PUT", body: html, headers });
  if (res.status !== 204) throw new Error(`page server refused ${path}`);
  return `${pageServer()}${path}`;
}

export function capture(site: TestSite, body: Record<string, unknown>) {
  return callJson<{
    capture: Record<string, unknown> & { webhookUrl: string; webhookSecret: string; lastRefresh: { ok: boolean; error?: string } | null };
  }>("PUT", `/sites/${site.id}/ssr/capture`, { auth: site.adminKey, body });
}

/** A request as the customer's proxy sends it. */
export function rendered(site: TestSite, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return call("GET", path, { headers: { "x-service-token": site.token, ...headers } });
}

export async function renderedHtml(site: TestSite, path: string): Promise<{ status: number; html: string; res: Response }> {
  const res = await rendered(site, path);
  return { status: res.status, html: await res.text(), res };
}

export async function publishedPost(site: TestSite, slug: string, data: Record<string, unknown>): Promise<{ id: string; slug: string }> {
  return addItem(site, "posts", { slug, publish: true, data });
}

/** An SEO Engine blog with a captured list page at /blog/ and the given posts. */
export async function capturedBlog(
  posts: { slug: string; data: Record<string, unknown> }[] = [],
): Promise<{ site: TestSite; pageUrl: string }> {
  const site = await newBlog("seo_engine");
  for (const p of posts) await publishedPost(site, p.slug, p.data);
  const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
  await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
  return { site, pageUrl };
}

export const pathOf = (url: string) => new URL(url).pathname;

/** Standard Webhooks headers for `body`, signed with a `whsec_…` secret as the site builder would. */
export async function signedHeaders(
  whsec: string,
  body: string,
  id = crypto.randomUUID(),
  ts = Math.floor(Date.now() / 1000),
): Promise<Record<string, string>> {
  const key = await crypto.subtle.importKey(
    "raw",
    Uint8Array.from(atob(whsec.slice("whsec_".length)), (c) => c.charCodeAt(0)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${ts}.${body}`)));
  return {
    "webhook-id": id,
    "webhook-timestamp": String(ts),
    "webhook-signature": `v1,${btoa(String.fromCharCode(...mac))}`,
    "content-type": "application/json",
  };
}
