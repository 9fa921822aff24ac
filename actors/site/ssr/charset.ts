/**
 * The character encoding of a captured page, found the way a browser finds it:
 * a byte order mark, else the Content-Type header's charset, else a
 * `<meta charset>` or `<meta http-equiv="Content-Type">` in the first 1,024
 * bytes, else UTF-8. The page is decoded with it and stored (and served) as
 * UTF-8, with its declaration rewritten to match (compile.ts).
 */

const PRESCAN_BYTES = 1024;

export function decodePage(bytes: Uint8Array, contentType: string | null): { html: string; charset: string } {
  const charset = pageCharset(bytes, contentType);
  // The BOM of the encoding found is dropped; a malformed byte becomes U+FFFD, as in a browser.
  return { html: new TextDecoder(charset, { fatal: false, ignoreBOM: false }).decode(bytes), charset };
}

export function pageCharset(bytes: Uint8Array, contentType: string | null): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  const fromHeader = resolve(/charset\s*=\s*["']?([^;"'\s]+)/i.exec(contentType ?? "")?.[1]);
  if (fromHeader) return fromHeader;
  const fromMeta = resolve(metaCharset(bytes));
  // A page cannot declare UTF-16 from inside itself (it would not be readable as ASCII): browsers read it as UTF-8.
  if (fromMeta) return fromMeta.startsWith("utf-16") ? "utf-8" : fromMeta;
  return "utf-8";
}

/** The charset a `<meta>` in the first bytes declares, read as ASCII (every encoding a page may declare keeps ASCII). */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("windows-1252").decode(bytes.subarray(0, PRESCAN_BYTES)).replace(/<!--[\s\S]*?-->/g, "");
  // `<meta charset="x">` and `<meta http-equiv="Content-Type" content="text/html; charset=x">` alike.
  for (const [tag] of head.matchAll(/<meta\b[^>]*>/gi)) {
    const label = /charset\s*=\s*["']?\s*([^\s"'/>;]+)/i.exec(tag)?.[1];
    if (label) return label;
  }
  return undefined;
}

/** The encoding's canonical name if TextDecoder knows the label, else undefined. */
function resolve(label: string | undefined): string | undefined {
  if (!label) return undefined;
  if (label.trim().toLowerCase() === "x-user-defined") return "windows-1252";
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}

/** Whether a declared charset already says UTF-8. */
export function isUtf8Label(label: string): boolean {
  return /^\s*utf-?8\s*$/i.test(label);
}
