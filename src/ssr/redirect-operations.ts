/** The owner's redirects of rendered pages (docs/redirects.md) as operations of the OpenAPI document. */
import { z } from "zod";
import { REDIRECT_LIMITS as L, RedirectImportResult, RedirectList, RedirectView, redirectInputSchema } from "../contract/redirects";
import { operation, type Operation } from "../openapi/registry";
import { withSiteId } from "../dashboard/operations";

const json = (description: string, schema: z.ZodType) => ({ description, schema, headers: "json" }) as const;
const one = z.strictObject({ redirect: RedirectView });
const TAG = "Server rendering";
const B = "/sites/{siteId}/ssr/redirects";
const redirectId = { name: "redirectId", in: "path", description: "The rule's id (`rd_…`).", schema: z.string(), required: true } as const;
const rules = `A rule's \`from\` is matched exactly (a trailing \`/\` aside) on every rendered page: through a custom hostname any path of the host, through the proxy the paths it forwards (under the routed base). A rule wins over a page at its path, and the sitemap leaves that page out. Chains of rules and of renamed items' old slugs are followed to their end and answered as one hop; a rule that would close a loop is 400. At most ${L.perSite} rules a site (409 \`conflict\`, \`details.limit: "redirects"\`).`;

const ops: Operation[] = [
  operation({
    id: "listRedirects",
    method: "get",
    path: B,
    tag: TAG,
    summary: "The owner's redirects, sorted by old path",
    description: `${L.page} rules a page; \`q\` keeps those whose \`from\` or \`to\` holds it (case-insensitive). \`automatic\` counts the old slugs of renamed items, which redirect without a rule.`,
    auth: "siteKey",
    params: [
      { name: "q", in: "query", description: "Text the old or new path holds.", schema: z.string() },
      { name: "page", in: "query", description: "The page number, from 1.", schema: z.int().default(1) },
    ],
    responses: { 200: json("The rules.", RedirectList) },
    errors: ["not_found"],
  }),
  operation({
    id: "createRedirect",
    method: "post",
    path: B,
    tag: TAG,
    summary: "Add a redirect: an old path to a new path or URL",
    description: `${rules} A path that has a rule already is 409 with \`details.redirectId\`. The next request for the path follows it (cached pages are retired). SEO Engine plan.`,
    auth: "siteKey",
    body: redirectInputSchema,
    responses: { 201: json("Added.", one) },
    errors: ["bad_request", "conflict", "plan_required", "not_found"],
  }),
  operation({
    id: "updateRedirect",
    method: "put",
    path: `${B}/{redirectId}`,
    tag: TAG,
    summary: "Change a redirect",
    description: `The rule's old path, target and status, checked as a new one is. SEO Engine plan.`,
    auth: "siteKey",
    params: [redirectId],
    body: redirectInputSchema,
    responses: { 200: json("Changed.", one) },
    errors: ["bad_request", "conflict", "plan_required", "not_found"],
  }),
  operation({
    id: "deleteRedirect",
    method: "delete",
    path: `${B}/{redirectId}`,
    tag: TAG,
    summary: "Delete a redirect",
    description: "The old path answers as it would without the rule (its page, an item's old slug's redirect, or 404). SEO Engine plan.",
    auth: "siteKey",
    params: [redirectId],
    responses: { 200: json("Deleted.", z.strictObject({ deleted: z.string() })) },
    errors: ["plan_required", "not_found"],
  }),
  operation({
    id: "exportRedirects",
    method: "get",
    path: `${B}.csv`,
    tag: TAG,
    summary: "Every redirect as CSV",
    description:
      "Columns `from, to, status`, sorted by `from`, UTF-8, CRLF (`Content-Disposition: attachment`); importRedirects takes the file back unchanged.",
    auth: "siteKey",
    responses: { 200: { description: "The CSV file.", media: ["text/csv"], headers: "json" } },
    errors: ["not_found"],
  }),
  operation({
    id: "importRedirects",
    method: "post",
    path: `${B}/import`,
    tag: TAG,
    summary: "Add or change redirects from a CSV file",
    description: `The file as the body: a header row naming \`from\` and \`to\` (also read: \`Redirect from\`/\`Redirect to\`, \`source\`/\`destination\`, \`old path\`/\`new path\`) and optionally \`status\` (301 or 302), separated by \`,\`, \`;\` or tab, UTF-8. A rule whose \`from\` has one already replaces it. All or nothing: any bad line is 400 with every problem (up to 50) in \`details.issues\` by line, and nothing is written. At most ${L.csvBytes / 1024 / 1024} MB. ${rules} SEO Engine plan.`,
    auth: "siteKey",
    rawBody: { media: ["text/csv"], description: `At most ${L.csvBytes / 1024 / 1024} MB, ${L.perSite} rules.` },
    responses: { 200: json("Imported.", RedirectImportResult) },
    errors: ["bad_request", "conflict", "payload_too_large", "plan_required", "not_found"],
  }),
];

export const redirectOperations: Operation[] = ops.map(withSiteId);
