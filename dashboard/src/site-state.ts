/** The open site and its collections, shared by every screen of the shell. */
import { signal } from "@preact/signals";
import { get } from "./api";
import type { Collection, Site } from "./types";

export const site = signal<Site | null>(null);
export const collections = signal<Collection[] | null>(null);
export const siteError = signal<unknown>(null);

export async function loadSite(siteId: string): Promise<void> {
  siteError.value = null;
  try {
    const [s, c] = await Promise.all([
      get<{ site: Site }>(`/sites/${siteId}`),
      get<{ collections: Collection[] }>(`/sites/${siteId}/collections`),
    ]);
    site.value = s.site;
    collections.value = c.collections;
  } catch (err) {
    siteError.value = err;
  }
}

export async function reloadCollections(): Promise<void> {
  const s = site.value;
  if (!s) return;
  collections.value = (await get<{ collections: Collection[] }>(`/sites/${s.id}/collections`)).collections;
}

export const sitePath = (...parts: string[]): string => `/sites/${site.value!.id}${parts.length ? "/" + parts.join("/") : ""}`;
