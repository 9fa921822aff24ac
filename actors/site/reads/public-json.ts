import { PUBLIC_CACHE_CONTROL } from "../../../src/contract/cache-control";

/** A public JSON answer: cached at the edge until a change purges it, tagged by site and collection. */
export function publicJson(siteId: string, collectionId: string | null, body: unknown): Response {
  return publicJsonText(siteId, collectionId, JSON.stringify(body));
}

export function publicJsonText(siteId: string, collectionId: string | null, text: string): Response {
  return new Response(text, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": PUBLIC_CACHE_CONTROL,
      "cache-tag": collectionId ? `site:${siteId},collection:${collectionId}` : `site:${siteId}`,
    },
  });
}
