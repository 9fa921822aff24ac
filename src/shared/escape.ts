/**
 * Every escape for every output context lives here, so a reviewer checks one
 * file. Content strings never reach HTML, attributes, XML or inline JSON any
 * other way.
 */

const HTML_TEXT: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
const HTML_ATTR: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text content of an element. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>]/g, (c) => HTML_TEXT[c] as string);
}

/** A double-quoted attribute value. */
export function escapeAttr(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ATTR[c] as string);
}

/**
 * An attribute value exactly as it appeared in the source (entities not
 * decoded), re-quoted with double quotes. Only a literal `"` needs changing:
 * `&quot;` decodes to the same character, so the value's meaning is kept.
 */
export function requoteRawAttr(raw: string): string {
  return raw.replace(/"/g, "&quot;");
}

// The named references site builders and editors actually emit; numeric ones cover the rest.
const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  ndash: "\u2013",
  mdash: "\u2014",
  lsquo: "\u2018",
  rsquo: "\u2019",
  sbquo: "\u201a",
  ldquo: "\u201c",
  rdquo: "\u201d",
  bdquo: "\u201e",
  hellip: "\u2026",
  bull: "\u2022",
  middot: "\u00b7",
  laquo: "\u00ab",
  raquo: "\u00bb",
  lsaquo: "\u2039",
  rsaquo: "\u203a",
  copy: "\u00a9",
  reg: "\u00ae",
  trade: "\u2122",
  deg: "\u00b0",
  times: "\u00d7",
  divide: "\u00f7",
  euro: "\u20ac",
  pound: "\u00a3",
  yen: "\u00a5",
  cent: "\u00a2",
  sect: "\u00a7",
  para: "\u00b6",
  dagger: "\u2020",
  thinsp: "\u2009",
  ensp: "\u2002",
  emsp: "\u2003",
  shy: "\u00ad",
  zwj: "\u200d",
  zwnj: "\u200c",
  iexcl: "\u00a1",
  iquest: "\u00bf",
  frac12: "\u00bd",
  frac14: "\u00bc",
  frac34: "\u00be",
};

/** Decodes numeric character references and the common named ones (anything else stays as written). */
export function decodeEntities(value: string): string {
  if (!value.includes("&")) return value;
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : "\ufffd";
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

// XML 1.0 allows tab, newline, carriage return and these ranges; anything else cannot be escaped, only removed.
const INVALID_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const XML: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Text or attribute value in XML (sitemaps, feeds): invalid characters dropped, the rest escaped. */
export function escapeXml(value: string): string {
  return value.replace(INVALID_XML, "").replace(/[&<>"']/g, (c) => XML[c] as string);
}

/**
 * JSON inside `<script type="application/ld+json">`: `<`, `>` and `&` become
 * \u escapes so no value can close the element or open a comment, and the
 * line separators that older parsers reject are escaped too.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
