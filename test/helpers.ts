import { exports } from "cloudflare:workers";

export const OPERATOR = "test-operator-token";
export const ORIGIN = "https://api.test";

export interface CallOptions {
  auth?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A request through the real front Worker, as a client would send it. */
export async function call(method: string, path: string, opts: CallOptions = {}): Promise<Response> {
  const headers = new Headers(opts.headers);
  if (opts.auth) headers.set("authorization", `Bearer ${opts.auth}`);
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, { method, headers, body, redirect: "manual" }));
}

export async function callJson<T = Record<string, unknown>>(
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<{ status: number; body: T; res: Response }> {
  const res = await call(method, path, opts);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T, res };
}

export interface TestSite {
  id: string;
  workspaceId: string;
  token: string;
  adminKey: string;
}

export async function newSite(plan: "starter" | "pro" | "seo_engine" = "pro", name = "Test site"): Promise<TestSite> {
  const { status, body } = await callJson<{ site: TestSite }>("POST", "/sites", { auth: OPERATOR, body: { name, plan } });
  if (status !== 201) throw new Error(`site creation failed: ${status} ${JSON.stringify(body)}`);
  return body.site;
}

/** Creates the collection `slug` of `site` (201), as the dashboard's collection editor does. */
export async function putCollection(
  site: TestSite,
  slug: string,
  body: { name: string; fields: Record<string, unknown>[] },
): Promise<void> {
  await expectStatus(callJson("PUT", `/sites/${site.id}/collections/${slug}`, { auth: site.adminKey, body }), 201);
}

/** A site with a `posts` collection covering every field type and a few indexed fields. */
export async function newBlog(plan: "starter" | "pro" | "seo_engine" = "pro"): Promise<TestSite> {
  const site = await newSite(plan);
  await expectStatus(
    callJson("PUT", `/sites/${site.id}/collections/authors`, {
      auth: site.adminKey,
      body: { name: "Authors", fields: [{ key: "name", type: "text", indexed: true, required: true }] },
    }),
    201,
  );
  await expectStatus(
    callJson("PUT", `/sites/${site.id}/collections/posts`, {
      auth: site.adminKey,
      body: {
        name: "Posts",
        fields: [
          { key: "title", type: "text", indexed: true, required: true },
          { key: "summary", type: "text", indexed: true },
          { key: "body", type: "richText" },
          { key: "views", type: "number", indexed: true },
          { key: "featured", type: "boolean", indexed: true },
          { key: "date", type: "date", indexed: true },
          { key: "website", type: "link" },
          { key: "cover", type: "image" },
          { key: "clip", type: "video" },
          { key: "author", type: "reference", collection: "authors", indexed: true },
          { key: "coauthors", type: "references", collection: "authors" },
          { key: "notes", type: "text" },
        ],
      },
    }),
    201,
  );
  return site;
}

export async function expectStatus<T>(p: Promise<{ status: number; body: T }>, status: number): Promise<T> {
  const r = await p;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function addItem(site: TestSite, collection: string, item: Record<string, unknown>): Promise<{ id: string; slug: string }> {
  const body = await expectStatus(
    callJson<{ item: { id: string; slug: string } }>("POST", `/sites/${site.id}/collections/${collection}/items`, {
      auth: site.adminKey,
      body: item,
    }),
    201,
  );
  return body.item;
}

/** Fails (instead of waiting on) a request that does not answer within `seconds`: a bound on work, not a measurement. */
export async function within<T>(seconds: number, p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${seconds} s`)), seconds * 1000);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
}
