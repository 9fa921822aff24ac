import type { SiteContext } from "../context";
import { activeHostname } from "./store";

export interface PublicBase {
  origin: string;
  /** Path of the list page, ending in `/`. */
  base: string;
}

/**
 * Where a site's rendered pages canonically live: its active custom hostname
 * (the whole hostname is the site's), else the captured public URL. Canonical
 * links, breadcrumbs, the sitemap and the feeds all use it.
 */
export function publicBase(s: SiteContext, capture: { publicUrl: string }): PublicBase {
  const host = activeHostname(s.sql);
  if (host) return { origin: `https://${host.hostname}`, base: "/" };
  return { origin: new URL(capture.publicUrl).origin, base: basePathOfUrl(capture.publicUrl) };
}

/** The path pages are routed under: the public URL's path, ending in `/`. */
export function basePathOfUrl(publicUrl: string): string {
  const path = new URL(publicUrl).pathname;
  return path.endsWith("/") ? path : `${path}/`;
}
