/** Where a stored file is served: a stable path of the service, and of every custom hostname and proxy route. */
import { urlName } from "./disposition";

/** The part of a media URL's hash that names a version of the file (its URL changes when it is replaced). */
export const HASH_IN_URL = 12;

export function mediaPath(siteId: string, mediaId: string, sha256: string, name: string, width?: number): string {
  return `/m/${siteId}/${mediaId}/${sha256.slice(0, HASH_IN_URL)}${width ? `/w/${width}` : ""}/${urlName(name)}`;
}

export interface MediaTarget {
  siteId: string | null;
  mediaId: string;
  hash: string;
  width: number | null;
}

/** `/m/<site>/<media>/<hash>[/w/<width>]/<name>` on the service, `/_media/<media>/<hash>[/w/<width>]/<name>` on a site's own host. */
export function parseMediaPath(pathname: string, onService: boolean): MediaTarget | null {
  const m = onService
    ? /^\/m\/([^/]+)\/([^/]+)\/([^/]+)(?:\/w\/(\d{1,5}))?\/[^/]+$/.exec(pathname)
    : /^\/_media\/()([^/]+)\/([^/]+)(?:\/w\/(\d{1,5}))?\/[^/]+$/.exec(pathname);
  if (!m) return null;
  return { siteId: onService ? m[1]! : null, mediaId: m[2]!, hash: m[3]!, width: m[4] ? Number(m[4]) : null };
}
