import { EMBED_JS } from "../../dist/embed-bundle";
import { STATIC_CACHE_CONTROL } from "../contract/cache-control";

const etag = `"e${EMBED_JS.length.toString(36)}-${hash(EMBED_JS)}"`;

/** `GET /embed.js`: the browser half of the renderer. Short browser cache, so fixes reach sites within minutes. */
export function embedScript(request: Request): Response {
  const headers = {
    "content-type": "text/javascript; charset=utf-8",
    "cache-control": STATIC_CACHE_CONTROL,
    "access-control-allow-origin": "*",
    etag,
  };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(EMBED_JS, { headers });
}

function hash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}
