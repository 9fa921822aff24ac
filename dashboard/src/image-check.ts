import { useEffect, useState } from "preact/hooks";

/**
 * Requests each image URL a screen shows, the way a browser or a crawler's card renderer would,
 * and returns the ones that did not load (a 404, a non-image answer, an unreachable host).
 * `null` while any is still loading.
 */
export function useBrokenImages(urls: readonly string[]): string[] | null {
  const key = urls.join("\n");
  const [broken, setBroken] = useState<string[] | null>(urls.length ? null : []);
  useEffect(() => {
    let live = true;
    if (urls.length === 0) {
      setBroken([]);
      return;
    }
    setBroken(null);
    void Promise.all(
      urls.map(
        (url) =>
          new Promise<string | null>((resolve) => {
            const img = new Image();
            img.onload = () => resolve(img.naturalWidth > 0 ? null : url);
            img.onerror = () => resolve(url);
            img.src = uncached(url);
          }),
      ),
    ).then((r) => live && setBroken(r.filter((u): u is string => u !== null)));
    return () => {
      live = false;
    };
  }, [key]);
  return broken;
}

/**
 * The address with a query the browser has not seen. Chromium keeps a document's failed image
 * loads in memory, so an image fixed on its host would still read as broken when the screen is
 * opened again without a reload. Hosts of static images ignore an unknown query.
 */
function uncached(url: string): string {
  if (!/^https?:/i.test(url)) return url;
  const u = new URL(url);
  u.searchParams.set("oc-check", String(++checks));
  return u.href;
}
let checks = Date.now();

/** Every address in a srcset (`url 640w, url 1280w`), without the width or density descriptors. */
export const srcsetUrls = (srcset: string): string[] =>
  srcset
    .split(",")
    .map((c) => c.trim().split(/\s+/)[0] ?? "")
    .filter(Boolean);
