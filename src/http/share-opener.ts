/**
 * The page a share link opens first, `GET /p/` (links are `/p/#<token>`). The token is after the
 * `#`, which browsers never send: the platform's request logs (Workers Logs keep each request's
 * method and URL) and every `Referer` see only `/p/`. A few lines of script read it and post it in
 * a form body to `/p/open`, which answers the preview. The page is the same for every link, so it
 * says nothing about any of them, and a program that fetches the link (a chat app's preview) gets
 * only this page.
 */
import { PREVIEW_TOKEN } from "../contract/ids";
import { plainPage, previewHeaders, SHARE_OPEN_PATH } from "./preview-page";

// The token's form is checked here too, so a mistyped fragment says so instead of posting.
const SCRIPT =
  `(function(){var t=location.hash.slice(1),f=document.getElementById("open");` +
  `if(!/${PREVIEW_TOKEN.source}/.test(t)){document.getElementById("bad").hidden=false;return;}` +
  `f.elements.token.value=t;f.submit();})();`;

const BODY =
  `<h1>A preview link</h1>` +
  `<form id="open" method="post" action="${SHARE_OPEN_PATH}"><input type="hidden" name="token">` +
  `</form><noscript><p>This preview opens with JavaScript turned on: the link's secret part, after the #, stays in your browser and is sent only to open it.</p></noscript>` +
  `<p id="bad" hidden>This link is not complete. Copy the whole link, with the part after the #, from the message it came in.</p>`;

let policy: Promise<string> | null = null;

/** Its policy allows this page's one script by hash, and the form back here; nothing else runs or loads. */
function openerPolicy(): Promise<string> {
  return (policy ??= crypto.subtle.digest("SHA-256", new TextEncoder().encode(SCRIPT)).then((d) => {
    const hash = btoa(String.fromCharCode(...new Uint8Array(d)));
    return `default-src 'none'; script-src 'sha256-${hash}'; img-src data:; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;
  }));
}

export async function shareOpener(): Promise<Response> {
  const html = plainPage("A preview link", `${BODY}<script>${SCRIPT}</script>`);
  return new Response(html, { headers: previewHeaders(await openerPolicy()) });
}
