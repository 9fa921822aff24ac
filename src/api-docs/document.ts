/**
 * Builds the OpenAPI 3.1 document from the operations registry. Schemas come from
 * zod's own JSON Schema output (draft 2020-12, OpenAPI 3.1's dialect): request
 * bodies as the handlers read them (`io: "input"`), answers as they are sent.
 */
import { z } from "zod";
import { ERROR_STATUS } from "../contract/errors";
import { MAX_ITEM_BYTES } from "../contract/limits";
import {
  MEDIA_CACHE_CONTROL,
  PUBLIC_CACHE_CONTROL,
  STATIC_CACHE_CONTROL,
  NO_STORE,
  PREVIEW_CACHE_CONTROL,
} from "../contract/cache-control";
import { COMPONENTS, errorEnvelope } from "../contract/responses";
import { OPERATIONS } from "./operations";
import { errorStatuses, type Auth, type HeaderSet, type Operation } from "../openapi/registry";

type Json = Record<string, unknown>;

const header = (description: string, schema: z.ZodType) => ({ description, required: true, schema });
const etag = header("A strong validator; send it back as If-None-Match.", z.string());
const HEADER_SETS: Record<
  HeaderSet | "error" | "limited",
  Record<string, { description: string; required: boolean; schema: z.ZodType }>
> = {
  json: { "Cache-Control": header("Dashboard answers are never cached.", z.literal(NO_STORE)) },
  session: {
    "Cache-Control": header("Never cached.", z.literal(NO_STORE)),
    "Set-Cookie": header(
      "`__Host-oc_session=<id>; Path=/; HttpOnly; SameSite=Strict; Secure` (`oc_session`, without `Secure`, on plain http in local runs only: elsewhere a write over http is refused with 400 `https_required`), `Max-Age` 7 days; `Max-Age=0` on sign-out.",
      z.string().regex(/^(__Host-)?oc_session=/),
    ),
  },
  dashboard: {
    "Content-Security-Policy": header("Scripts and styles from the service only, no framing.", z.string().regex(/script-src 'self'/)),
    "X-Frame-Options": header("Never framed.", z.literal("DENY")),
    "Referrer-Policy": header("URLs stay on the service.", z.literal("same-origin")),
  },
  error: { "Cache-Control": header("Errors are never cached.", z.literal(NO_STORE)) },
  limited: {
    "Cache-Control": header("Errors are never cached.", z.literal(NO_STORE)),
    "Retry-After": header("Seconds to wait before trying again.", z.string().regex(/^\d+$/)),
    "RateLimit-Policy": header(
      'The policy that refused the request (draft-ietf-httpapi-ratelimit-headers-11), e.g. `"reads";q=24000;w=60`. See the README\'s rate-limit table.',
      z.string().regex(/^"[a-z-]+";q=\d+;w=\d+/),
    ),
  },
  content: {
    "Cache-Control": header("Shared caches keep the answer; the service invalidates it on every change.", z.literal(PUBLIC_CACHE_CONTROL)),
    ETag: etag,
    "Cache-Tag": header("`site:<siteId>` and, for one collection, `collection:<collectionId>`: purge by tag.", z.string()),
    "X-Cache": header("Whether the edge cache answered.", z.enum(["HIT", "MISS"])),
    "Access-Control-Allow-Origin": header("Any site may read the content API.", z.literal("*")),
  },
  page: {
    "Cache-Control": header("Revalidate every time (a cheap 304).", z.literal("public, max-age=0, must-revalidate")),
    ETag: etag,
  },
  redirect: { Location: header("The canonical path.", z.string()) },
  noindex: {
    "Cache-Control": header("Never cached.", z.literal(NO_STORE)),
    "X-Robots-Tag": header("Keeps the page out of search engines.", z.literal("noindex")),
  },
  preview: {
    "Cache-Control": header("Kept by no cache, shared or the browser's: the URL is a secret.", z.literal(PREVIEW_CACHE_CONTROL)),
    "X-Robots-Tag": header("Keeps the page out of search engines (the page also says so in a meta tag).", z.literal("noindex")),
    "Referrer-Policy": header("The URL (and its token) is never sent on.", z.literal("no-referrer")),
  },
  previewLimited: {
    "Cache-Control": header("Never kept.", z.literal(PREVIEW_CACHE_CONTROL)),
    "Retry-After": header("Seconds to wait before trying the password again.", z.string().regex(/^\d+$/)),
  },
  media: {
    "Cache-Control": header("A file's URL changes when it is replaced, so its bytes are kept a year.", z.literal(MEDIA_CACHE_CONTROL)),
    ETag: etag,
    "Content-Security-Policy": header("Sandboxed: an SVG or PDF opened directly runs nothing.", z.literal("sandbox; default-src 'none'")),
    "Content-Disposition": header("`inline` with the file's name (RFC 6266).", z.string().regex(/^inline; filename="/)),
  },
  variant: {
    "Cache-Control": header("A variant's URL names its file's version, so it is kept a year.", z.literal(MEDIA_CACHE_CONTROL)),
    ETag: etag,
    "Content-Security-Policy": header("Sandboxed.", z.literal("sandbox; default-src 'none'")),
    Vary: header("The format follows the Accept header.", z.string().regex(/Accept/)),
    "X-Cache": header("MISS when this request made the variant, HIT when it was kept from before.", z.enum(["HIT", "MISS"])),
  },
  static: {
    "Cache-Control": header("Five minutes in browsers, a day at the edge.", z.literal(STATIC_CACHE_CONTROL)),
    ETag: etag,
    "Access-Control-Allow-Origin": header("Readable from any origin.", z.literal("*")),
  },
};

const SECURITY: Record<Auth, Json[]> = {
  none: [],
  publicToken: [],
  serviceToken: [{ serviceToken: [] }],
  siteKey: [{ siteKey: [] }, { apiKey: [] }, { operator: [] }, { session: [] }],
  operator: [{ operator: [] }, { session: [] }],
  workspace: [{ apiKey: [] }, { operator: [] }, { session: [] }],
  account: [{ session: [] }],
};

const DESCRIPTION = `Content delivery and edge server rendering: the public content API, the dashboard API, rendered pages and the site builder's webhook.

**Authentication.** The public content API takes the site's public token (\`pk_…\`) in the path (\`/v1/{token}/…\`): it is safe to publish in pages, and OpenAPI has no security scheme for a path segment. The dashboard API takes \`Authorization: Bearer\` with a workspace API key (\`ak_…\`, read-only or full, for scripts: what it may do is the README's role table), a site's admin key (\`sk_…\`) under \`/sites/{siteId}\`, or the operator token (everything); the dashboard itself signs in with a session cookie. Outbound webhooks and the builder's webhook are signed the Standard Webhooks way: the HMAC-SHA256 key is the base64 text after \`whsec_\`, decoded to bytes (the \`standardwebhooks\` package verifies a call in one line). Rendered pages take \`x-service-token\` (the site's public token), added by the customer's reverse proxy.

**Errors.** Every error is \`{"error": {"code", "message", "details"?}}\`, JSON, \`Cache-Control: no-store\`, with one HTTP status per code: ${Object.entries(
  ERROR_STATUS,
)
  .map(([code, status]) => `\`${code}\` ${status}`)
  .join(
    ", ",
  )}. Each operation lists the codes it answers. Unexpected failures are logged and answered with 500 \`internal_error\` by any operation. Validation errors list every problem in \`details.issues[{path, message}]\`. A 413 names the limit it crossed in \`details.limit\` (a whole request body over its cap: \`{limit: "request", max, maxBytes}\`; a write that would make an item larger than ${MAX_ITEM_BYTES} bytes as stored, its values as JSON, slug and search text: \`{limit: "item", max, bytes, slug}\`).`;

/** The document; built once per isolate (the Worker) or per run (scripts/openapi.mjs). */
export function buildDocument(version: string): Json {
  const inputs = z.registry<{ id: string }>();
  const outputs = z.registry<{ id: string }>();
  const named = new Map<z.ZodType, string>();
  const ref = (registry: typeof inputs, schema: z.ZodType, id: string): Json => {
    let name = named.get(schema);
    if (!name) {
      // Two answers of one operation (200 and 202) with different schemas get numbered names.
      name = [...named.values()].includes(id) ? `${id}${named.size}` : id;
      named.set(schema, name);
      registry.add(schema, { id: name });
    }
    return { $ref: `#/components/schemas/${name}` };
  };
  for (const [name, schema] of Object.entries(COMPONENTS)) ref(outputs, schema, name);

  const errorSchemas = new Map<string, Json>();
  const errorRef = (codes: readonly (keyof typeof ERROR_STATUS)[]): Json => {
    const key = codes.join("|");
    let r = errorSchemas.get(key);
    if (!r) {
      r = ref(outputs, errorEnvelope(codes), `Error_${codes.join("_")}`);
      errorSchemas.set(key, r);
    }
    return r;
  };

  const paths: Record<string, Record<string, Json>> = {};
  for (const op of OPERATIONS) {
    const Id = op.id[0]!.toUpperCase() + op.id.slice(1);
    const responses: Record<string, Json> = {};
    for (const [status, r] of Object.entries(op.responses)) {
      if (!r) continue;
      const content: Record<string, Json> = {};
      if (r.schema) {
        const media: Json = { schema: ref(outputs, r.schema, Number(status) === 200 ? `${Id}Response` : `${Id}${status}Response`) };
        if (r.example !== undefined) media.example = r.example;
        content["application/json"] = media;
      }
      for (const m of r.media ?? []) content[m] = { schema: { type: "string" } };
      responses[status] = {
        description: r.description,
        headers: headersOf(r.headers),
        ...(Object.keys(content).length ? { content } : {}),
      };
    }
    for (const [status, codes] of errorStatuses(op)) {
      const media: Json = { schema: errorRef(codes) };
      const example = codes.map((c) => op.errorExamples?.[c] && { error: { code: c, ...op.errorExamples[c] } }).find(Boolean);
      if (example) media.example = example;
      const existing = responses[status];
      const description = `Error: ${codes.map((c) => `\`${c}\``).join(" or ")}.`;
      // A status with both a page and an error (a rendered 404) names only the headers both carry.
      const errorHeaders = headersOf(status === 429 ? "limited" : "error");
      responses[status] = existing
        ? {
            description: `${existing.description as string} ${description}`,
            headers: Object.fromEntries(Object.entries(errorHeaders).filter(([name]) => name in (existing.headers as Json))),
            content: { ...(existing.content as Json), "application/json": media },
          }
        : { description, headers: errorHeaders, content: { "application/json": media } };
    }
    const entry: Json = {
      operationId: op.id,
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      security: SECURITY[op.auth],
      ...(op.params?.length ? { parameters: op.params.map(parameterOf) } : {}),
      ...(op.rawBody
        ? {
            requestBody: {
              required: true,
              description: op.rawBody.description,
              content: Object.fromEntries(op.rawBody.media.map((m) => [m, { schema: { type: "string", format: "binary" } }])),
            },
          }
        : {}),
      ...(op.body || op.looseBody
        ? {
            requestBody: {
              required: !op.bodyOptional,
              content: {
                "application/json": {
                  schema: op.body ? ref(inputs, op.body, `${Id}Request`) : schemaOf(op.looseBody!, "input"),
                },
              },
            },
          }
        : {}),
      responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
    };
    (paths[op.path] ??= {})[op.method] = entry;
  }

  return {
    openapi: "3.1.0",
    info: { title: "open-content-edge", version, description: DESCRIPTION },
    tags: [...new Set(OPERATIONS.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { ...components(outputs, "output"), ...components(inputs, "input") },
      headers: headerComponents(),
      securitySchemes: {
        siteKey: { type: "http", scheme: "bearer", description: "A site's admin key (`sk_…`), shown once when the site is created." },
        apiKey: {
          type: "http",
          scheme: "bearer",
          description:
            "A workspace API key (`ak_…`): read-only or full, optionally one site; shown once when created (`POST /workspaces/{id}/api-keys`). What it may do is the README's role table (read = Viewer; full = Administrator on sites, never members, keys or the workspace).",
        },
        operator: {
          type: "http",
          scheme: "bearer",
          description: "The operator token (the `ADMIN_TOKEN` secret): every workspace and site.",
        },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "__Host-oc_session",
          description:
            "The dashboard's session (`POST /sessions`), in place of `Authorization`. A request that changes anything must come from the service's own origin (`Origin` or `Sec-Fetch-Site: same-origin`), else 403 `forbidden`.",
        },
        serviceToken: {
          type: "apiKey",
          in: "header",
          name: "x-service-token",
          description: "The site's public token, added by the customer's reverse proxy.",
        },
      },
    },
  };
}

const OPTIONS = { target: "draft-2020-12", unrepresentable: "any" } as const;

const SAFE = Number.MAX_SAFE_INTEGER;

/** Drops the dialect and id zod writes on each top-level schema, and the safe-integer bounds it puts on every integer. */
function clean(schema: Json): Json {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return strip(rest) as Json;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (typeof value !== "object" || value === null) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if ((k === "minimum" && v === -SAFE) || (k === "maximum" && v === SAFE)) continue;
    out[k] = strip(v);
  }
  return out;
}

function schemaOf(schema: z.ZodType, io: "input" | "output"): Json {
  return clean(z.toJSONSchema(schema, { ...OPTIONS, io }) as Json);
}

function components(registry: z.core.$ZodRegistry<{ id: string }>, io: "input" | "output"): Record<string, Json> {
  const out = z.toJSONSchema(registry, { ...OPTIONS, io, uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, Json> };
  return Object.fromEntries(Object.entries(out.schemas).map(([id, s]) => [id, clean(s)]));
}

/** A header's component name: its set and name, e.g. `content.Cache-Control`. */
function headersOf(set: HeaderSet | "error" | "limited"): Json {
  return Object.fromEntries(Object.keys(HEADER_SETS[set]).map((name) => [name, { $ref: `#/components/headers/${set}.${name}` }]));
}

function headerComponents(): Json {
  const out: Json = {};
  for (const [set, headers] of Object.entries(HEADER_SETS)) {
    for (const [name, h] of Object.entries(headers)) {
      out[`${set}.${name}`] = { description: h.description, required: h.required, schema: schemaOf(h.schema, "output") };
    }
  }
  return out;
}

function parameterOf(p: NonNullable<Operation["params"]>[number]): Json {
  return {
    name: p.name,
    in: p.in,
    description: p.description,
    ...(p.required ? { required: true } : {}),
    ...(p.style ? { style: p.style, explode: true } : {}),
    schema: schemaOf(p.schema, "input"),
  };
}
