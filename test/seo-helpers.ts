import { decodeEntities } from "../src/shared/escape";

export interface Head {
  titles: string[];
  meta: Map<string, string[]>;
  canonical: string[];
  jsonLd: Record<string, unknown>[];
  rawJsonLd: string[];
}

/** The head of a rendered page, read with HTMLRewriter (a real HTML parser), values decoded. */
export async function readHead(html: string): Promise<Head> {
  const head: Head = { titles: [], meta: new Map(), canonical: [], jsonLd: [], rawJsonLd: [] };
  let title: string | null = null;
  let ld: string | null = null;
  const attr = (el: Element, n: string) => decodeEntities(el.getAttribute(n) ?? "");
  await new HTMLRewriter()
    .on("title", {
      element(el) {
        title = "";
        el.onEndTag(() => {
          head.titles.push(decodeEntities(title ?? ""));
          title = null;
        });
      },
      text(t) {
        if (title !== null) title += t.text;
      },
    })
    .on("meta", {
      element(el) {
        const key = el.getAttribute("property") ?? el.getAttribute("name");
        if (key) head.meta.set(key, [...(head.meta.get(key) ?? []), attr(el, "content")]);
      },
    })
    .on('link[rel="canonical"]', { element: (el) => void head.canonical.push(attr(el, "href")) })
    .on('script[type="application/ld+json"]', {
      element(el) {
        ld = "";
        el.onEndTag(() => {
          head.rawJsonLd.push(ld ?? "");
          head.jsonLd.push(JSON.parse(ld ?? "") as Record<string, unknown>);
          ld = null;
        });
      },
      text(t) {
        if (ld !== null) ld += t.text;
      },
    })
    .transform(new Response(html))
    .text();
  return head;
}

export const one = (h: Head, key: string): string | undefined => {
  const v = h.meta.get(key);
  if (v && v.length > 1) throw new Error(`${key} appears ${v.length} times`);
  return v?.[0];
};
