/**
 * SVG is active content: it is parsed as XML (as browsers parse an SVG file) with saxes, a strict,
 * namespace-aware parser, and a NEW document is written from allowlisted elements and attributes
 * only, so what is served is what was checked. An HTML sanitiser (HTMLRewriter, sanitize-html)
 * parses a different tree than the browser and keeps DOCTYPE entities and CDATA scripts; DOMPurify
 * needs a DOM that workerd lacks.
 */
import { SaxesParser, type SaxesTagNS } from "saxes";
import { ApiError } from "../contract/errors";
import { decodeCssEscapes } from "./css-escapes";

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";

const ELEMENTS = new Set([
  "svg",
  "g",
  "defs",
  "title",
  "desc",
  "symbol",
  "use",
  "path",
  "rect",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "text",
  "tspan",
  "textPath",
  "linearGradient",
  "radialGradient",
  "stop",
  "clipPath",
  "mask",
  "pattern",
  "marker",
  "filter",
  "feGaussianBlur",
  "feOffset",
  "feBlend",
  "feColorMatrix",
  "feComposite",
  "feFlood",
  "feMerge",
  "feMergeNode",
  "feDropShadow",
  "image",
  "style",
]);

// Presentation and geometry attributes (SVG 2 property index, the ones drawings use). No `on*`, no `style`
// attribute (CSS in an attribute would need a CSS parser to vet), `href` only to a fragment of this document.
const ATTRIBUTES = new Set([
  "id",
  "class",
  "viewBox",
  "width",
  "height",
  "x",
  "y",
  "x1",
  "y1",
  "x2",
  "y2",
  "cx",
  "cy",
  "r",
  "rx",
  "ry",
  "d",
  "points",
  "pathLength",
  "fill",
  "fill-opacity",
  "fill-rule",
  "clip-rule",
  "stroke",
  "stroke-width",
  "stroke-linecap",
  "stroke-linejoin",
  "stroke-miterlimit",
  "stroke-dasharray",
  "stroke-dashoffset",
  "stroke-opacity",
  "opacity",
  "transform",
  "offset",
  "stop-color",
  "stop-opacity",
  "gradientUnits",
  "gradientTransform",
  "spreadMethod",
  "preserveAspectRatio",
  "version",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "letter-spacing",
  "word-spacing",
  "text-anchor",
  "dominant-baseline",
  "alignment-baseline",
  "baseline-shift",
  "text-decoration",
  "clip-path",
  "mask",
  "filter",
  "stdDeviation",
  "in",
  "in2",
  "result",
  "mode",
  "values",
  "type",
  "operator",
  "k1",
  "k2",
  "k3",
  "k4",
  "dx",
  "dy",
  "rotate",
  "lengthAdjust",
  "textLength",
  "startOffset",
  "markerWidth",
  "markerHeight",
  "markerUnits",
  "refX",
  "refY",
  "orient",
  "patternUnits",
  "patternContentUnits",
  "patternTransform",
  "maskUnits",
  "maskContentUnits",
  "clipPathUnits",
  "filterUnits",
  "primitiveUnits",
  "fx",
  "fy",
  "fr",
  "flood-color",
  "flood-opacity",
  "color",
  "visibility",
  "display",
  "overflow",
  "vector-effect",
  "paint-order",
  "shape-rendering",
  "mix-blend-mode",
  "isolation",
  "href",
]);

const escapeXml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
// Matched against CSS with its escapes decoded (css-escapes.ts), as the browser will read it.
const EXTERNAL_CSS = /@import|url\(\s*(?!['"]?#)|expression\(|javascript:|-moz-binding|behavior\s*:/i;
const refersOutside = (css: string): boolean => EXTERNAL_CSS.test(decodeCssEscapes(css));

function refused(reason: string): ApiError {
  return new ApiError("unsupported_media_type", `This SVG cannot be accepted: ${reason}.`, { reason });
}

/** The sanitised document, or 415 with the reason it cannot be made safe. */
export function sanitizeSvg(bytes: Uint8Array): Uint8Array {
  let source: string;
  try {
    source = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes).replace(/^\uFEFF/, "");
  } catch {
    throw refused("it is not UTF-8 text");
  }
  const parser = new SaxesParser({ xmlns: true, position: false });
  const out: string[] = [];
  const stack: boolean[] = [];
  let skip = 0; // depth inside a dropped element: its whole subtree goes
  // The text of the kept <style> being read: a style sheet is its element's text, checked whole
  // at its end tag, so a reference split by an element or a CDATA section is still seen.
  let style: string[] | null = null;
  let sawRoot = false;
  let failure: ApiError | null = null;
  const fail = (e: ApiError) => {
    failure ??= e;
  };
  parser.on("doctype", (d) => {
    // A bare public DOCTYPE (SVG 1.1) is dropped; one with an internal subset can declare entities.
    if (d.includes("[")) fail(refused("it declares DTD entities; export it without them (SVG 1.1, 'Preserve editing' off)"));
  });
  parser.on("processinginstruction", (pi) => fail(refused(`it holds a processing instruction <?${pi.target}?>`)));
  parser.on("opentag", (tag: SaxesTagNS) => {
    const root = stack.length === 0;
    if (root) {
      sawRoot = true;
      if (tag.uri !== SVG_NS || tag.local !== "svg") fail(refused(`it is not an SVG document (no xmlns="${SVG_NS}" root <svg>)`));
    }
    // Nothing is kept inside a <style>: its content is CSS text, never markup.
    const keep = skip === 0 && style === null && tag.uri === SVG_NS && ELEMENTS.has(tag.local) && (!root || tag.local === "svg");
    stack.push(keep);
    if (!keep) {
      skip++;
      return;
    }
    if (tag.local === "style") style = [];
    let s = `<${tag.local}${root ? ` xmlns="${SVG_NS}"` : ""}`;
    for (const a of Object.values(tag.attributes)) {
      const plain = a.uri === "" && ATTRIBUTES.has(a.local);
      const xlinkHref = a.uri === XLINK_NS && a.local === "href";
      if (!plain && !xlinkHref) continue;
      if (a.local === "href" && !a.value.trim().startsWith("#")) continue;
      // Presentation attributes are CSS values: a reference outside the file drops the attribute.
      if (refersOutside(a.value)) continue;
      s += ` ${a.local}="${escapeXml(a.value)}"`; // xlink:href is written as SVG 2 href
    }
    out.push(`${s}>`);
  });
  const text = (t: string) => {
    if (skip !== 0 || stack.length === 0) return;
    out.push(escapeXml(t));
    style?.push(t);
  };
  parser.on("text", text);
  parser.on("cdata", text);
  parser.on("closetag", (tag: SaxesTagNS) => {
    if (!stack.pop()) {
      skip--;
      return;
    }
    if (style !== null) {
      if (refersOutside(style.join(""))) fail(refused("its <style> refers to something outside the file"));
      style = null;
    }
    out.push(`</${tag.local}>`);
  });
  parser.on("error", (e) => fail(refused(`it is not well-formed XML (${e.message.split("\n")[0]})`)));
  try {
    parser.write(source).close();
  } catch (e) {
    fail(refused(`it is not well-formed XML (${(e as Error).message.split("\n")[0]})`));
  }
  if (failure) throw failure;
  if (!sawRoot) throw refused("it has no root element");
  return new TextEncoder().encode(out.join(""));
}
