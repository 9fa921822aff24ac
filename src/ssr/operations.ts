/** Server rendering (capture, refresh, webhook, rendered pages) and custom hostnames as operations of the OpenAPI document. */
import { z } from "zod";
import { captureSchema, richResultsSchema } from "../contract/ssr";
import { customHostnameSchema } from "../contract/hostname-input";
import { Capture, CustomHostname, ProxyKey, RichResultsReport } from "../contract/responses";
import { P } from "../openapi/params";
import { operation, type Operation } from "../openapi/registry";
import { withSiteId } from "../dashboard/operations";

const json = (description: string, schema: z.ZodType) => ({ description, schema, headers: "json" }) as const;
const capture = z.strictObject({ capture: Capture });
const richResults = z.strictObject({ richResults: RichResultsReport });
const hostname = z.strictObject({ customHostname: CustomHostname, replacing: CustomHostname.optional() });

const siteOps: Operation[] = [
  operation({
    id: "putCapture",
    method: "put",
    path: "/sites/{siteId}/ssr/capture",
    tag: "Server rendering",
    summary: "Capture a page as the rendering template",
    description:
      "Fetches `pageUrl` now (http(s), 10 s, 5 MB, 5 redirects) and checks that it is HTML with a `data-oc-list` widget for `collection` and this site's embed script; otherwise 422 `capture_failed` with `details.reason`, and the previous capture stays. SEO Engine plan.",
    auth: "siteKey",
    body: captureSchema,
    responses: { 200: json("Captured again.", capture), 201: json("Captured.", capture) },
    errors: ["plan_required", "not_found", "capture_failed"],
  }),
  operation({
    id: "getCapture",
    method: "get",
    path: "/sites/{siteId}/ssr/capture",
    tag: "Server rendering",
    summary: "The capture, its refreshes and its documents",
    auth: "siteKey",
    responses: { 200: json("The capture.", capture) },
    errors: ["not_found"],
  }),
  operation({
    id: "getCaptureStatus",
    method: "get",
    path: "/sites/{siteId}/ssr/capture/status",
    tag: "Server rendering",
    summary: "The capture, or null when the site has none",
    description:
      "As `getCapture`, for a screen that asks whether there is one: a site without a captured page answers 200 `{capture: null}`, not 404 (404 stays for an unknown site).",
    auth: "siteKey",
    responses: { 200: json("The capture, or null.", z.strictObject({ capture: Capture.nullable() })) },
    errors: ["not_found"],
  }),
  operation({
    id: "deleteCapture",
    method: "delete",
    path: "/sites/{siteId}/ssr/capture",
    tag: "Server rendering",
    summary: "Stop rendering",
    description: "Rendered pages answer 404 from now on.",
    auth: "siteKey",
    responses: { 200: json("Deleted.", z.strictObject({ deleted: z.literal(true) })) },
    errors: ["not_found"],
  }),
  operation({
    id: "refreshCapture",
    method: "post",
    path: "/sites/{siteId}/ssr/refresh",
    tag: "Server rendering",
    summary: "Re-fetch the captured page now",
    description: "A failure keeps the last good template (422 `capture_failed`).",
    auth: "siteKey",
    responses: { 200: json("Refreshed.", capture) },
    errors: ["plan_required", "not_found", "capture_failed"],
  }),
  operation({
    id: "rotateWebhookSecret",
    method: "post",
    path: "/sites/{siteId}/ssr/webhook-secret",
    tag: "Server rendering",
    summary: "Rotate the publish webhook's secret",
    description:
      "A new `webhookSecret`; calls signed with the old one are refused from now on, and the old URL form with the secret in its path (`webhookLegacyUrl`) stops working. Update the builder's webhook with the answer's `webhookUrl` and `webhookSecret`.",
    auth: "siteKey",
    responses: { 200: json("Rotated.", capture) },
    errors: ["plan_required", "not_found"],
  }),
  operation({
    id: "getRichResults",
    method: "get",
    path: "/sites/{siteId}/ssr/rich-results",
    tag: "Server rendering",
    summary: "The item pages' rich results: schema type, fields, eligible items",
    description:
      "The schema.org type the captured collection's item pages describe in JSON-LD (chosen, or proposed from the fields), the field behind each property Google reads, and, for the newest 500 published items checked as their pages render them, how many are eligible for the rich result and which required properties the others lack or which have expired (a job past its closing date, an event that ended) (docs/rich-results.md). With `?item=` (an item id, any status), `item` says the same of that item as the crawler preview renders it.",
    auth: "siteKey",
    params: [
      { name: "item", in: "query", description: "An item of the captured collection (`it_…`), drafts included.", schema: z.string() },
    ],
    responses: { 200: json("The report.", richResults) },
    errors: ["not_found"],
  }),
  operation({
    id: "putRichResults",
    method: "put",
    path: "/sites/{siteId}/ssr/rich-results",
    tag: "Server rendering",
    summary: "Choose the item pages' schema type and the field of each property",
    description:
      '`type` (`none` writes no item JSON-LD but the breadcrumbs) and `fields`, each property path to a field key of the captured collection; a property left out keeps its proposed field, `""` leaves it empty. A property the type lacks, an unknown field or one of a type the property cannot take is 400 with `details.path`. The page is not fetched again; every item page follows at once. SEO Engine plan.',
    auth: "siteKey",
    body: richResultsSchema,
    responses: { 200: json("Saved; the new report.", richResults) },
    errors: ["bad_request", "plan_required", "not_found"],
  }),
  operation({
    id: "getProxyKey",
    method: "get",
    path: "/sites/{siteId}/ssr/proxy-key",
    tag: "Server rendering",
    summary: "The site's proxy key, for the reverse-proxy Worker",
    description:
      "Set it as the proxy's `PROXY_KEY` secret: the proxy then sends each visitor's address (`x-visitor-ip`) beside it (`x-proxy-key`), and rendered pages are limited per visitor. Without it, all pages through the proxy count as the proxy's own connection. Callers with `seo.manage` only; any plan (the pages themselves need the SEO Engine plan).",
    auth: "siteKey",
    responses: { 200: json("The key.", ProxyKey) },
    errors: ["not_found"],
  }),
  operation({
    id: "previewPage",
    method: "get",
    path: "/sites/{siteId}/ssr/preview",
    tag: "Server rendering",
    summary: "The rendered list or item page as crawlers would get it, drafts included",
    description:
      "For the dashboard's preview: never cached (`no-store`), `X-Robots-Tag: noindex`, `Content-Security-Policy: sandbox; frame-ancestors 'self'`, with a `<base href>` of the captured page. Scripts and inline event handlers are left out (the dashboard's frame is sandboxed and would refuse them); JSON-LD and other data blocks stay. Previewing changes nothing.",
    auth: "siteKey",
    params: [
      {
        name: "item",
        in: "query",
        description: "An item id of the connected collection, any status; without it, the list page.",
        schema: z.string(),
      },
      P.listPage,
    ],
    responses: {
      200: { description: "The rendered page.", media: ["text/html"], headers: "noindex" },
      404: { description: "No such item or page: the template's look with `noindex`.", media: ["text/html"], headers: "noindex" },
    },
    errors: ["plan_required", "not_found"],
  }),
  operation({
    id: "putCustomHostname",
    method: "post",
    path: "/sites/{siteId}/ssr/custom-hostname",
    tag: "Custom hostnames",
    summary: "Serve the rendered pages on a hostname of the customer's",
    description:
      "Add one CNAME record `hostname → cnameTarget`; the certificate is issued automatically. A hostname of another site is 409. 501 `not_configured` when this deployment has no custom hostname provider; 502 `bad_gateway` when the provider fails.",
    auth: "siteKey",
    body: customHostnameSchema,
    responses: { 200: json("Already registered.", hostname), 201: json("Registered.", hostname) },
    errors: ["plan_required", "not_found", "conflict", "not_configured", "bad_gateway"],
  }),
  operation({
    id: "getCustomHostname",
    method: "get",
    path: "/sites/{siteId}/ssr/custom-hostname",
    tag: "Custom hostnames",
    summary: "The hostname and its certificate status",
    description: "During a replacement, `replacing` is the hostname still being served.",
    auth: "siteKey",
    responses: { 200: json("The hostname.", hostname) },
    errors: ["not_found", "not_configured"],
  }),
  operation({
    id: "getCustomHostnameStatus",
    method: "get",
    path: "/sites/{siteId}/ssr/custom-hostname/status",
    tag: "Custom hostnames",
    summary: "The hostname and its certificate status, or null when the site has none",
    description:
      "As `getCustomHostname`, for a screen that asks whether there is one: a site without a custom hostname answers 200 `{customHostname: null}`, not 404 (404 stays for an unknown site), and a deployment without a custom hostname provider 200 `{customHostname: null, available: false}` (where the other custom-hostname calls answer 501 `not_configured`).",
    auth: "siteKey",
    responses: {
      200: json(
        "The hostname, or null.",
        z.strictObject({
          customHostname: CustomHostname.nullable(),
          replacing: CustomHostname.optional(),
          available: z
            .literal(false)
            .optional()
            .describe("Present (false) only when this deployment has no custom hostname provider: nothing can be registered."),
        }),
      ),
    },
    errors: ["not_found"],
  }),
  operation({
    id: "deleteCustomHostname",
    method: "delete",
    path: "/sites/{siteId}/ssr/custom-hostname",
    tag: "Custom hostnames",
    summary: "Stop serving the hostname, at once",
    auth: "siteKey",
    responses: { 200: json("Detached.", z.strictObject({ detached: z.array(z.string()) })) },
    errors: ["not_found", "not_configured"],
  }),
];

export const ssrOperations: Operation[] = [
  ...siteOps.map(withSiteId),
  operation({
    id: "ssrWebhook",
    method: "post",
    path: "/hooks/ssr/{siteId}",
    tag: "Server rendering",
    summary: "The site builder's publish webhook (signed)",
    description:
      "The URL is `capture.webhookUrl`; no secret travels in it. Every call is signed over a timestamp within ±5 minutes and accepted once per delivery id: Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of {id}.{timestamp}.{body}>` with `capture.webhookSecret`), or Webflow's `x-webflow-timestamp` + `x-webflow-signature` with the `webhookSigningSecret` you gave. A repeated delivery is acknowledged and ignored (200). A site publish event queues a refresh (202); other events are ignored (200). Unsigned or wrongly signed calls get 401.",
    auth: "none",
    params: [P.siteId],
    looseBody: z.unknown().describe("The builder's event, up to 1 MB."),
    responses: {
      200: json("Not a site publish event: ignored.", z.strictObject({ refresh: z.literal("ignored"), reason: z.string() })),
      202: json(
        "Refresh queued on the site's alarm.",
        z.strictObject({ refresh: z.literal("queued"), signature: z.enum(["valid", "unsigned"]) }),
      ),
    },
    errors: ["unauthorized", "not_found", "payload_too_large"],
  }),
  operation({
    id: "ssrWebhookLegacy",
    method: "post",
    path: "/hooks/ssr/{siteId}/{secret}",
    tag: "Server rendering",
    summary: "The publish webhook's old URL form (secret in the path)",
    description:
      "Deprecated: accepted only for captures made before the secret left the URL, until the secret is rotated (`capture.webhookLegacyUrl`). With `webhookSigningSecret` set the call must be signed: Webflow's `x-webflow-timestamp` + `x-webflow-signature`, or `x-hub-signature-256`.",
    auth: "none",
    params: [P.siteId, { name: "secret", in: "path", required: true, description: "The URL's 48-hex-digit secret.", schema: z.string() }],
    looseBody: z.unknown().describe("The builder's event, up to 1 MB."),
    responses: {
      200: json("Not a site publish event: ignored.", z.strictObject({ refresh: z.literal("ignored"), reason: z.string() })),
      202: json(
        "Refresh queued on the site's alarm.",
        z.strictObject({ refresh: z.literal("queued"), signature: z.enum(["valid", "unsigned"]) }),
      ),
    },
    errors: ["unauthorized", "not_found", "payload_too_large"],
  }),
  operation({
    id: "renderedPage",
    method: "get",
    path: "/{path}",
    tag: "Server rendering",
    summary: "A rendered page, sitemap or feed (through the customer's proxy)",
    description:
      "Any path under the captured page's base path, with `x-service-token` (the customer's proxy adds it): `<base>` the list (`?page=N`), `<base><slug>` an item, `<base>sitemap.xml`, `sitemap-N.xml`, `rss.xml`, `feed.json`. `<base>` without its trailing slash and `<base><slug>/` redirect (301), and so does a published item's old slug, to its current one (`<base><new-slug>`, same query, one hop however often it was renamed). Unknown or unpublished slugs get 404 with the template's look and `X-Robots-Tag: noindex`. On an active custom hostname the same pages are served by Host, without the header. GET or HEAD; SEO Engine plan. Errors are the error envelope, except for a client that asks for HTML (`Accept` with `text/html`, as a browser does): it gets a plain page with the same status, in words for the site's visitors (\"Page not found\", \"This page is not available\"), never cached, `noindex`.",
    auth: "serviceToken",
    params: [
      {
        name: "path",
        in: "path",
        required: true,
        description: "The path under the base path, e.g. `blog/hello-world`.",
        schema: z.string(),
      },
      P.listPage,
      P.ifNoneMatch,
    ],
    responses: {
      200: {
        description: "The page or document.",
        media: ["text/html", "application/xml", "application/rss+xml", "application/feed+json"],
        headers: "page",
      },
      301: { description: "To the canonical form of the path, or from an item's old slug to its current one.", headers: "redirect" },
      304: { description: "Not modified.", headers: "page" },
      404: { description: "No such page: the template's look, with `X-Robots-Tag: noindex`.", media: ["text/html"], headers: "noindex" },
    },
    errors: ["plan_required", "not_found"],
  }),
];
