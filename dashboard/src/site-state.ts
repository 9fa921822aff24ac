/** The open site and its collections, shared by every screen of the shell. */
import { signal } from "@preact/signals";
import { call, client } from "./api";
import type { Collection, Site } from "./types";

export const site = signal<Site | null>(null);
export const collections = signal<Collection[] | null>(null);
export const siteError = signal<unknown>(null);

/** Path parameters of the open site's API paths (`/sites/{siteId}/…`), plus any others given. */
export const inSite = <P extends object = Record<never, never>>(more?: P): P & { siteId: string } =>
  ({ ...more, siteId: site.value!.id }) as P & { siteId: string };

const listCollections = (siteId: string) => call(client.GET("/sites/{siteId}/collections", { params: { path: { siteId } } }));

export async function loadSite(siteId: string): Promise<void> {
  siteError.value = null;
  try {
    const [s, c] = await Promise.all([call(client.GET("/sites/{siteId}", { params: { path: { siteId } } })), listCollections(siteId)]);
    site.value = s.site;
    collections.value = c.collections;
  } catch (err) {
    siteError.value = err;
  }
}

export async function reloadCollections(): Promise<void> {
  const s = site.value;
  if (!s) return;
  collections.value = (await listCollections(s.id)).collections;
}
