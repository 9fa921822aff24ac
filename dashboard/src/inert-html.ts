/**
 * A whole page's HTML, ready to be parsed in the dashboard without a console full of errors.
 * Chromium checks a document made by DOMParser against the dashboard's own Content-Security-Policy
 * and reports every `<style>` element and `style` attribute (style-src 'self') and every `<base>`
 * (base-uri 'none') of the page as a violation, though nothing of it would be applied. Readers of
 * a parsed page never need them, so style elements are left out and the others renamed first: a
 * style attribute becomes `data-oc-style`, a base element `oc-base`. Comments and the text of
 * script, textarea and title elements (where a `<` is not a tag) are kept as they are.
 */
export function inertHtml(html: string): string {
  return html.replace(TOKENS, (token, raw: string | undefined, name: string | undefined, attrs: string | undefined, end: string) => {
    if (raw !== undefined) return raw.toLowerCase() === "style" ? "" : token;
    if (name === undefined) return token;
    const tag = name.toLowerCase() === "base" ? "oc-base" : name;
    const renamed = (attrs ?? "").replace(
      ATTRIBUTE,
      (_, space: string, attr: string, value: string | undefined) =>
        `${space}${attr.toLowerCase() === "style" ? "data-oc-style" : attr}${value ?? ""}`,
    );
    return `<${tag}${renamed}${end}>`;
  });
}

// One attribute: a name, then an optional value (quoted, or unquoted up to a space or `>`).
const ATTR = String.raw`\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?`;
const ATTRIBUTE = new RegExp(String.raw`(\s+)([^\s"'>/=]+)(\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?`, "g");
// A comment, a raw-text element whole, or a start tag with its attributes.
const TOKENS = new RegExp(
  String.raw`<!--[\s\S]*?-->|<(script|style|textarea|title)\b[^>]*>[\s\S]*?<\/\1\s*>|<([a-zA-Z][^\s/>]*)((?:${ATTR})*)(\s*\/?)>`,
  "gi",
);
