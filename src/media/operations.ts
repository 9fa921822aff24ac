/** The media library's uploads and the public file URLs, as operations of the OpenAPI document. */
import { z } from "zod";
import { MEDIA_LIMITS, MEDIA_TYPES, MEDIA_VARIANT_WIDTHS, MEDIA_MAX_SERVED_WIDTH, MEDIA_AVIF_MAX_WIDTH } from "../contract/limits";
import { MediaEntry } from "../contract/responses";
import { operation, type Operation, type Param } from "../openapi/registry";
import { withSiteId } from "../dashboard/operations";

const MiB = (n: number) => `${Math.round(n / 1024 / 1024)} MiB`;
const L = MEDIA_LIMITS;
const limitsText =
  `Types by their bytes: ${MEDIA_TYPES.join(", ")}. At most ${MiB(L.bytes.image)} per image, ${MiB(L.bytes.svg)} per SVG, ` +
  `${MiB(L.bytes.pdf)} per PDF, ${MiB(L.bytes.video)} per video, ${MiB(L.requestBytes)} per request, ` +
  `${L.maxPixels / 1_000_000} megapixels and ${L.maxSide} px a side per image (read from the header, before decoding), ` +
  `${L.filesPerRequest} files per form; storage by plan (README "Limits"). Over a limit: 413 \`payload_too_large\` with \`details.limit\` ` +
  "(`file`, `request`, `pixels`, `files`, `storage`), before the body is read when Content-Length says so; nothing partial is kept.";

const uploaded = z.strictObject({
  media: MediaEntry,
  duplicate: z.boolean().describe("The library already held these exact bytes: this is that entry, nothing new was stored."),
});

const fileParams = (onHost: boolean): Param[] => [
  ...(onHost ? [] : [{ name: "siteId", in: "path" as const, description: "The site's id.", schema: z.string(), required: true }]),
  { name: "mediaId", in: "path", description: "The media entry's id (`md_…`).", schema: z.string(), required: true },
  {
    name: "hash",
    in: "path",
    description: "The first 12 hex digits of the file's SHA-256: its version.",
    schema: z.string(),
    required: true,
  },
  {
    name: "name",
    in: "path",
    description: "The file's name (any name is accepted; it is for people and downloads).",
    schema: z.string(),
    required: true,
  },
];
const widthParam: Param = {
  name: "width",
  in: "path",
  description: `One of the widths in the entry's srcset (${MEDIA_VARIANT_WIDTHS.join(", ")}, the original's own when narrower, ${MEDIA_MAX_SERVED_WIDTH} for wider ones).`,
  schema: z.int(),
  required: true,
};
const fileAnswer = {
  200: { description: "The file's bytes.", media: [...MEDIA_TYPES], headers: "media" as const },
  206: {
    description: "One byte range of the file (`Range: bytes=a-b`, `a-` or `-n`).",
    media: [...MEDIA_TYPES],
    headers: "media" as const,
  },
  304: { description: "Unchanged (If-None-Match).", headers: "media" as const },
};
const variantAnswer = {
  200: {
    description: `The image at that width: AVIF when the Accept header allows it (up to ${MEDIA_AVIF_MAX_WIDTH} px), else WebP when allowed, else JPEG or PNG. \`Vary: Accept\`.`,
    media: ["image/avif", "image/webp", "image/jpeg", "image/png"],
    headers: "variant" as const,
  },
  304: { description: "Unchanged (If-None-Match).", headers: "variant" as const },
};

export const mediaOperations: Operation[] = [
  withSiteId(
    operation({
      id: "uploadMedia",
      method: "post",
      path: "/sites/{siteId}/media/files",
      tag: "Media",
      summary: "Upload files into the media library",
      description:
        "A raw body (the file's bytes, with Content-Length; `X-File-Name` and `X-Alt` percent-encoded) answers one entry; " +
        "`multipart/form-data` (`file` parts, each after an optional `alt` field) answers one result per file, and a refused file " +
        `leaves nothing while the others stand. ${limitsText} SVG is sanitised (no script, handlers or outside references). ` +
        "The same bytes uploaded twice are stored once.",
      auth: "siteKey",
      rawBody: {
        media: ["application/octet-stream", "image/*", "video/*", "application/pdf", "multipart/form-data"],
        description: limitsText,
      },
      responses: {
        201: { description: "Stored (raw body).", schema: uploaded, headers: "json" },
        200: {
          description: "Already in the library (raw body), or one result per file (form).",
          schema: z.union([
            uploaded,
            z.strictObject({
              results: z.array(
                z.strictObject({
                  name: z.string(),
                  media: MediaEntry.optional(),
                  duplicate: z.boolean().optional(),
                  error: z.strictObject({ code: z.string(), message: z.string(), details: z.unknown().optional() }).optional(),
                }),
              ),
            }),
          ]),
          headers: "json",
        },
      },
      errors: ["bad_request", "not_found", "request_timeout", "length_required", "payload_too_large", "unsupported_media_type"],
    }),
  ),
  withSiteId(
    operation({
      id: "deleteMedia",
      method: "delete",
      path: "/sites/{siteId}/media/{mediaId}",
      tag: "Media",
      summary: "Delete a media entry, its bytes and every variant",
      description:
        "Refused with 409 `conflict` and `details.usedBy` (the items that show it) unless `detach=true`, which removes it from those items in the same change.",
      auth: "siteKey",
      params: [
        { name: "mediaId", in: "path", description: "The media entry's id (`md_…`).", schema: z.string(), required: true },
        {
          name: "detach",
          in: "query",
          description: "`true`: remove the entry from the items that show it.",
          schema: z.enum(["true", "false"]),
        },
      ],
      responses: {
        200: {
          description: "Deleted.",
          schema: z.strictObject({ deleted: z.literal(true), id: z.string(), detached: z.int().describe("Items it was removed from.") }),
          headers: "json",
        },
      },
      errors: ["not_found", "conflict"],
      errorExamples: {
        conflict: {
          message: "This file is shown by 1 item; remove it from them first, or delete with ?detach=true.",
          details: { usedBy: [{ collection: "posts", itemId: "it_…", slug: "hello", field: "cover" }] },
        },
      },
    }),
  ),
  withSiteId(
    operation({
      id: "replaceMedia",
      method: "put",
      path: "/sites/{siteId}/media/{mediaId}/file",
      tag: "Media",
      summary: "Replace an entry's file, keeping its id",
      description:
        "The new file as a raw body (Content-Length; `X-File-Name` percent-encoded), with the upload's checks and limits. " +
        "The entry keeps its id, alt text and focal point; its `url` changes with the bytes (the old URL answers 404), every item " +
        "showing it shows the new file (one revision each), and the old file and its variants are removed. An image is replaced by " +
        "an image, a video by a video (415 otherwise); bytes already in the library as another entry: 409 with `details.mediaId`.",
      auth: "siteKey",
      params: [{ name: "mediaId", in: "path", description: "The media entry's id (`md_…`).", schema: z.string(), required: true }],
      rawBody: { media: ["application/octet-stream", "image/*", "video/*", "application/pdf"], description: limitsText },
      responses: {
        200: {
          description: "Replaced (or `unchanged`: the same bytes as before).",
          schema: z.strictObject({ media: MediaEntry, unchanged: z.boolean() }),
          headers: "json",
        },
      },
      errors: ["bad_request", "not_found", "conflict", "request_timeout", "length_required", "payload_too_large", "unsupported_media_type"],
    }),
  ),
  withSiteId(
    operation({
      id: "copyMedia",
      method: "post",
      path: "/sites/{siteId}/media/{mediaId}/copy",
      tag: "Media",
      summary: "Copy media added by URL into the library",
      description:
        `Fetches the entry's URL by the same address rules as page capture (http(s), no private addresses, at most ${L.copyRedirects} redirects, ` +
        `one ${L.copyTimeoutMs / 1000} s deadline) and stores it as an uploaded file: type from its bytes and the upload limits (413, 415). ` +
        "Every item whose image or video field showed an entry of that URL, and that the caller may edit, now shows the stored file " +
        "(one revision each); items the caller may not edit (another author's, or a published one for a role that cannot publish) " +
        "keep the URL and are listed in `notRepointed`. " +
        "The same bytes already in the library: that entry is used (`duplicate: true`). An entry already stored is answered as it is.",
      auth: "siteKey",
      params: [{ name: "mediaId", in: "path", description: "The media entry's id (`md_…`).", schema: z.string(), required: true }],
      responses: {
        200: {
          description: "Copied (or already stored); the items the caller may edit that showed the URL now show the stored file.",
          schema: uploaded.extend({
            repointed: z.int().describe("Items now showing the stored file."),
            notRepointed: z
              .array(z.strictObject({ collection: z.string(), itemId: z.string(), slug: z.string() }))
              .describe("Items that show the URL and that the caller may not edit: they still show the URL."),
          }),
          headers: "json",
        },
      },
      errors: ["bad_request", "not_found", "payload_too_large", "unsupported_media_type", "bad_gateway"],
      errorExamples: {
        bad_request: {
          message: "Cannot copy the file: 10.0.0.5 is a loopback or private address; copy files from public addresses only.",
          details: { reason: "private_address", url: "http://10.0.0.5/cover.jpg" },
        },
      },
    }),
  ),
  operation({
    id: "getMediaFile",
    method: "get",
    path: "/m/{siteId}/{mediaId}/{hash}/{name}",
    tag: "Media",
    summary: "A stored file (the entry's `url`)",
    description:
      "Public. Immutable for a year (the URL changes when the file is replaced), `Range` for seeking, sandboxed (`Content-Security-Policy: sandbox`). " +
      `Images wider than ${MEDIA_MAX_SERVED_WIDTH} px are served at ${MEDIA_MAX_SERVED_WIDTH} px. Unknown files, and other sites' ids, are 404.`,
    auth: "none",
    params: fileParams(false),
    responses: fileAnswer,
    errors: ["not_found", "range_not_satisfiable"],
  }),
  operation({
    id: "getMediaVariant",
    method: "get",
    path: "/m/{siteId}/{mediaId}/{hash}/w/{width}/{name}",
    tag: "Media",
    summary: "A stored image at one of its srcset widths",
    description: "Made by the Images binding on first request and kept; later requests read the kept copy.",
    auth: "none",
    params: [...fileParams(false).slice(0, 3), widthParam, fileParams(false)[3]!],
    responses: variantAnswer,
    errors: ["not_found", "bad_gateway"],
  }),
  operation({
    id: "getHostMediaFile",
    method: "get",
    path: "/_media/{mediaId}/{hash}/{name}",
    tag: "Media",
    summary: "A stored file, on the site's custom hostname or proxy route",
    auth: "none",
    params: fileParams(true),
    responses: fileAnswer,
    errors: ["not_found", "range_not_satisfiable"],
  }),
];
