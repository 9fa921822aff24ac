/** The service's own documents (the embed script, this API description) as operations of the OpenAPI document. */
import { z } from "zod";
import { operation, type Operation } from "../openapi/registry";

const tag = "Service";

export const serviceOperations: Operation[] = [
  operation({
    id: "getServiceInfo",
    method: "get",
    path: "/",
    tag,
    summary: "Where the API reference is",
    auth: "none",
    responses: {
      200: {
        description: "Pointers to the reference.",
        schema: z.strictObject({ service: z.string(), docs: z.string(), openapi: z.string() }),
        headers: "json",
      },
    },
    errors: [],
  }),
  operation({
    id: "getEmbedScript",
    method: "get",
    path: "/embed.js",
    tag,
    summary: "The embed script",
    description:
      'Include it with `<script src="…/embed.js" data-oc-token="pk_…" defer>`; it renders the page\'s widgets from the content API.',
    auth: "none",
    params: [{ name: "if-none-match", in: "header", description: "An earlier ETag.", schema: z.string() }],
    responses: {
      200: { description: "The script.", media: ["text/javascript"], headers: "static" },
      304: { description: "Not modified.", headers: "static" },
    },
    errors: [],
  }),
  operation({
    id: "getOpenApi",
    method: "get",
    path: "/openapi.json",
    tag,
    summary: "This document",
    auth: "none",
    responses: { 200: { description: "The OpenAPI 3.1 document.", schema: z.record(z.string(), z.unknown()), headers: "static" } },
    errors: [],
  }),
  operation({
    id: "getApiReference",
    method: "get",
    path: "/docs",
    tag,
    summary: "The API reference, rendered from this document",
    auth: "none",
    responses: { 200: { description: "An HTML page (Swagger UI, served by the service).", media: ["text/html"], headers: "static" } },
    errors: [],
  }),
  operation({
    id: "getApiReferenceAsset",
    method: "get",
    path: "/docs/{asset}",
    tag,
    summary: "The reference page's script and style sheet",
    auth: "none",
    params: [{ name: "asset", in: "path", required: true, description: "`swagger-ui-bundle.js` or `swagger-ui.css`.", schema: z.string() }],
    responses: { 200: { description: "The file.", media: ["text/javascript", "text/css"], headers: "static" } },
    errors: ["not_found"],
  }),
];
