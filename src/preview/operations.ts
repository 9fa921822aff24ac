/** Share links of items ("Preview links") as operations of the OpenAPI document. */
import { z } from "zod";
import { CreatedPreviewLink, PreviewLinkView, previewLinkInputSchema } from "../contract/preview-links";
import { PREVIEW_LINK_LIMITS as L } from "../contract/history-limits";
import { PublicItem } from "../contract/responses";
import { P } from "../openapi/params";
import { operation, type Operation, type Param, type Success } from "../openapi/registry";
import { withSiteId } from "../dashboard/operations";

const ITEM = "/sites/{siteId}/collections/{slug}/items/{id}";
const json = (description: string, schema: z.ZodType) => ({ description, schema, headers: "json" }) as const;
const linkId: Param = { name: "linkId", in: "path", description: "The link's id (`pl_…`).", schema: z.string(), required: true };
const token: Param = {
  name: "token",
  in: "path",
  description: "The share link's secret token (`pv_…`), as the dashboard gave it.",
  schema: z.string(),
  required: true,
};
const page = (description: string): Success => ({ description, media: ["text/html"], headers: "preview" });
const NOT_FOUND = page(
  "The one answer for a token that is wrong, expired, revoked or used up, or whose item was deleted: the same page, whichever it is.",
);

const dashboardOps: Operation[] = [
  operation({
    id: "createPreviewLink",
    method: "post",
    path: `${ITEM}/preview-links`,
    tag: "History",
    summary: "Create a share link that shows the item's current draft",
    description: `Anyone with the URL sees the item as it is now (a published item's pending changes), on the service's own host only: rendered in the captured template when the site has the SEO Engine and the item is of the captured collection, otherwise as a plain page with its JSON. The URL (\`https://<host>/p/#<token>\`) holds a secret token after its \`#\`, which browsers never send, so no request log or \`Referer\` holds it; it is answered only here, and only its SHA-256 is stored. It works until it expires (default 7 days), is revoked, or has been opened \`maxOpens\` times. At most ${L.livePerItem} working links per item and ${L.livePerSite} per site (409 with \`details.limit: "previewLinks"\`).`,
    auth: "siteKey",
    params: [P.slug, P.itemId],
    body: previewLinkInputSchema,
    responses: { 201: json("The link and its URL (shown once).", CreatedPreviewLink) },
    errors: ["not_found", "conflict"],
  }),
  operation({
    id: "listPreviewLinks",
    method: "get",
    path: `${ITEM}/preview-links`,
    tag: "History",
    summary: "An item's share links with how often each was opened",
    description: "Newest first; revoked and expired links stay listed (without their token) for 30 days.",
    auth: "siteKey",
    params: [P.slug, P.itemId],
    responses: { 200: json("The item's links.", z.strictObject({ links: z.array(PreviewLinkView) })) },
    errors: ["not_found"],
  }),
  operation({
    id: "revokePreviewLink",
    method: "delete",
    path: `${ITEM}/preview-links/{linkId}`,
    tag: "History",
    summary: "Turn a share link off for good",
    description: "The link answers the same 404 page as a wrong one from now on; it stays in the list with its opens.",
    auth: "siteKey",
    params: [P.slug, P.itemId, linkId],
    responses: { 200: json("The revoked link.", z.strictObject({ link: PreviewLinkView })) },
    errors: ["not_found"],
  }),
];

const formFields = "`token=<pv_…>`, and `password=…` (the form of a link with a password) or `format=json` (the item as JSON).";

const publicOps: Operation[] = [
  operation({
    id: "openShareLinkPage",
    method: "get",
    path: "/p/",
    tag: "Preview",
    summary: "The page a share link opens (`/p/#<token>`)",
    description:
      "The same page for every link: a short script reads the token after the `#` (never sent to any server) and posts it to `/p/open` in a form body, so no URL that reaches the service or its logs holds it. Its Content-Security-Policy allows that one script by hash; without JavaScript the page says so.",
    auth: "none",
    responses: { 200: page("The page that posts the link's token.") },
    errors: [],
  }),
  operation({
    id: "openShareLink",
    method: "post",
    path: "/p/open",
    tag: "Preview",
    summary: "Open a share link by its token in a form (what the page at `/p/` posts)",
    description: `\`application/x-www-form-urlencoded\`: ${formFields} Answers as \`GET /p/{token}\` does (the same headers, the one 404 page, only a browser's navigation opens and counts), except that a link with a password answers its form (posting here, the token in a hidden field) and the right password answers the preview itself with the unlock cookie (12 hours), since no address without the token could be returned to. ${L.freePasswordAttempts} wrong passwords per client and link, then a doubling wait (429). A body over 2 KB is no share link's: the 404 page.`,
    auth: "none",
    rawBody: { media: ["application/x-www-form-urlencoded"], description: formFields },
    responses: {
      200: {
        description:
          "The draft rendered, the password form, or the page that asks for a browser (HTML); with `format=json`, the item as the content API shapes it.",
        schema: z.strictObject({ item: PublicItem.extend({ publishedAt: z.string().nullable() }) }),
        media: ["text/html"],
        headers: "preview",
      },
      401: page("Wrong password: the form again."),
      404: NOT_FOUND,
      429: { description: "Too many wrong passwords: wait `Retry-After` seconds.", media: ["text/html"], headers: "previewLimited" },
    },
    // A body past the request limit is refused (the one error envelope) before the route.
    errors: ["payload_too_large"],
  }),
  operation({
    id: "openPreviewLink",
    method: "get",
    path: "/p/{token}",
    tag: "Preview",
    summary: "Open a share link with its token in the path (links made before `/p/#`)",
    description:
      "Links are now made as `/p/#<token>` (openShareLinkPage); those made before, with the token in the path, keep working here until they end (30 days at most), though their path reaches the request logs. Served on the service's own hosts only (never on a custom hostname or through the proxy), never cached (`private, no-store`), never indexed (`X-Robots-Tag` and `<meta name=\"robots\" content=\"noindex\">`), never framed, `Referrer-Policy: no-referrer`. Only a browser's navigation (`Sec-Fetch-Dest: document`, `Sec-Fetch-Mode: navigate`) opens it and counts as an open; anything else (a chat app's link preview) gets a page that asks to open it in a browser, whatever the token. A link with a password answers its form until the password was given (a cookie remembers it for 12 hours). `?format=json` answers the item as JSON (`{item}`, the content API's shape), counted as an open.",
    auth: "none",
    params: [token, { name: "format", in: "query", description: "`json`: the item as JSON.", schema: z.enum(["json"]) }],
    responses: {
      200: {
        description:
          "The draft rendered, the password form, or the page that asks for a browser (HTML); with `?format=json`, the item as the content API shapes it (a draft's `publishedAt` is null).",
        schema: z.strictObject({ item: PublicItem.extend({ publishedAt: z.string().nullable() }) }),
        media: ["text/html"],
        headers: "preview",
      },
      404: NOT_FOUND,
    },
    errors: [],
  }),
  operation({
    id: "unlockPreviewLink",
    method: "post",
    path: "/p/{token}",
    tag: "Preview",
    summary: "Give the password of a link with its token in the path (the form's post)",
    description: `\`application/x-www-form-urlencoded\` with \`password\`. Right: 303 back to the link with a cookie (12 hours). Wrong: 401 with the form again. ${L.freePasswordAttempts} wrong tries per client and link, then a doubling wait (429).`,
    auth: "none",
    params: [token],
    rawBody: { media: ["application/x-www-form-urlencoded"], description: "`password=…`" },
    responses: {
      200: page("A request that is not a browser's navigation: the page that asks for a browser."),
      303: { description: "The password was right: back to the link, with the unlock cookie.", headers: "redirect" },
      401: page("Wrong password: the form again."),
      404: NOT_FOUND,
      429: { description: "Too many wrong passwords: wait `Retry-After` seconds.", media: ["text/html"], headers: "previewLimited" },
    },
    // A body past the request limit is refused (the one error envelope) before the route.
    errors: ["payload_too_large"],
  }),
];

export const previewOperations: Operation[] = [...dashboardOps.map((op) => withSiteId(op)), ...publicOps];
