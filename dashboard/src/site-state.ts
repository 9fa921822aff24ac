/** The open site and its collections, shared by every screen of the shell. */
import { signal } from "@preact/signals";
import { call, client } from "./api";
import type { CallerAccess, Collection, PlanChange, Site } from "./types";
import { ROLE_LABEL } from "../../src/contract/principal";

export const site = signal<Site | null>(null);
/** What the signed-in caller may do on the open site (getSite's `access`); the API stays the authority. */
export const access = signal<CallerAccess | null>(null);
/** What each plan costs and adds, and how this deployment lets the workspace change plan (getSite's `planChange`). */
export const planChange = signal<PlanChange | null>(null);

/** Whether the caller holds any of these permissions on the open site (the role table of docs/workspaces.md). */
export const can = (...permissions: string[]): boolean => {
  const a = access.value;
  return a === null || permissions.some((p) => a.permissions.includes(p));
};

/** How the dashboard names the caller's role on the open site. */
export const ROLE_NAMES: Record<string, string> = {
  ...ROLE_LABEL,
  "key:read": "read-only API key",
  "key:full": "API key",
  operator: "Operator",
};
/** The caller's role on the open site, as the dashboard names it ("Editor"). */
export const roleName = (): string => ROLE_NAMES[access.value?.role ?? ""] ?? "yours";
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
    access.value = s.access;
    planChange.value = s.planChange;
    site.value = s.site;
    collections.value = c.collections;
  } catch (err) {
    siteError.value = err;
  }
}

/** Reads the open site again (its plan, features and what the caller may do), as after a plan change. */
export async function reloadSite(): Promise<void> {
  const s = await call(client.GET("/sites/{siteId}", { params: { path: inSite() } }));
  access.value = s.access;
  planChange.value = s.planChange;
  site.value = s.site;
}

export async function reloadCollections(): Promise<void> {
  const s = site.value;
  if (!s) return;
  collections.value = (await listCollections(s.id)).collections;
}
