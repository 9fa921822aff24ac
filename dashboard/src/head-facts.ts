import { inertHtml } from "./inert-html";

/** What a rendered page's head tells search engines and social networks, read as a crawler would. */
export interface HeadFacts {
  title: string;
  description: string;
  canonical: string;
  robots: string;
  og: Record<string, string>;
  twitter: Record<string, string>;
  jsonLd: { text: string; type: string; valid: boolean }[];
  /** Every image address the page's body shows (src and srcset candidates), absolute. */
  images: string[];
}

// Lengths search results show before cutting (about 600 px of title, 920 px of description).
export const TITLE_MAX = 60;
export const DESCRIPTION_MAX = 160;

export function headFacts(html: string): HeadFacts {
  const doc = new DOMParser().parseFromString(inertHtml(html), "text/html");
  const meta = (sel: string) => doc.querySelector<HTMLMetaElement>(sel)?.content.trim() ?? "";
  const prefixed = (attr: string, prefix: string) => {
    const out: Record<string, string> = {};
    for (const m of doc.querySelectorAll<HTMLMetaElement>(`meta[${attr}^="${prefix}"]`)) out[m.getAttribute(attr)!] = m.content;
    return out;
  };
  const base = doc.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.getAttribute("href") || location.href;
  const absolute = (u: string) => {
    try {
      return new URL(u, base).href;
    } catch {
      return "";
    }
  };
  const images = new Set<string>();
  for (const img of doc.querySelectorAll("body img")) {
    const src = img.getAttribute("src");
    if (src) images.add(absolute(src));
    for (const c of (img.getAttribute("srcset") ?? "").split(",")) {
      const u = c.trim().split(/\s+/)[0];
      if (u) images.add(absolute(u));
    }
  }
  images.delete("");
  return {
    images: [...images].slice(0, 40),
    title: doc.querySelector("title")?.textContent?.trim() ?? "",
    description: meta('meta[name="description"]'),
    canonical: doc.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.getAttribute("href") ?? "",
    robots: meta('meta[name="robots"]'),
    og: prefixed("property", "og:"),
    twitter: { ...prefixed("name", "twitter:"), ...prefixed("property", "twitter:") },
    jsonLd: [...doc.querySelectorAll('script[type="application/ld+json"]')].map((s) => {
      const text = s.textContent ?? "";
      try {
        const parsed = JSON.parse(text) as { "@type"?: unknown };
        return { text: JSON.stringify(parsed, null, 2), type: String(parsed["@type"] ?? "(no @type)"), valid: true };
      } catch {
        return { text, type: "(not valid JSON)", valid: false };
      }
    }),
  };
}

/** Problems worth telling the owner about, in words. */
export function headWarnings(f: HeadFacts): string[] {
  const w: string[] = [];
  if (!f.title) w.push("The page has no title.");
  else if (f.title.length > TITLE_MAX) w.push(`The title is ${f.title.length} characters; search results cut it after about ${TITLE_MAX}.`);
  if (!f.description) w.push("The page has no meta description; search engines will pick text from the page.");
  else if (f.description.length > DESCRIPTION_MAX)
    w.push(`The description is ${f.description.length} characters; search results cut it after about ${DESCRIPTION_MAX}.`);
  if (!f.canonical) w.push("The page has no canonical URL.");
  if (!f.og["og:image"]) w.push("No social image (og:image): shared links show no picture.");
  if (/noindex/i.test(f.robots)) w.push("The page asks search engines not to index it (robots noindex).");
  for (const j of f.jsonLd) if (!j.valid) w.push("A JSON-LD block is not valid JSON.");
  return w;
}
