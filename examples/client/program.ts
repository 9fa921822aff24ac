/**
 * A client typed from openapi.json (README: "API reference and typed clients"): lists, reads, searches,
 * then creates and publishes an item. `npm run check` generates ./api.d.ts with
 * openapi-typescript and compiles this file, so a change to the API that would break
 * such a client fails the check.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./api";

type Item = components["schemas"]["PublicItem"];

export async function tour(baseUrl: string, site: { id: string; token: string; adminKey: string }): Promise<Item[]> {
  const api = createClient<paths>({ baseUrl });
  const token = site.token;

  const list = await api.GET("/v1/{token}/collections/{slug}/items", {
    params: { path: { token, slug: "posts" }, query: { limit: 10, sort: "-publishedAt", filter: { featured: "true" } } },
  });
  if (!list.data) throw new Error(`list: ${list.error?.error.code}`);
  const pages: number = list.data.totalPages;

  const first = list.data.items[0];
  if (first) {
    const one = await api.GET("/v1/{token}/collections/{slug}/items/{itemSlug}", {
      params: { path: { token, slug: "posts", itemSlug: first.slug } },
    });
    if (one.error) throw new Error(`${one.error.error.code}: ${one.error.error.message}`);
  }

  const found = await api.GET("/v1/{token}/search", { params: { path: { token }, query: { q: "puppy training", limit: 5 } } });
  const scores = (found.data?.results ?? []).map((r) => r.score);

  const admin = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${site.adminKey}` } });
  const created = await admin.POST("/sites/{siteId}/collections/{slug}/items", {
    params: { path: { siteId: site.id, slug: "posts" } },
    body: { slug: "hello-typed-world", data: { title: "Hello" } },
  });
  if (!created.data) throw new Error(`create: ${created.error?.error.code}`);
  const published = await admin.POST("/sites/{siteId}/collections/{slug}/items/{id}/publish", {
    params: { path: { siteId: site.id, slug: "posts", id: created.data.item.id } },
  });
  const status: "draft" | "published" | undefined = published.data?.item.status;
  console.log({ pages, scores, status });
  return list.data.items;
}
