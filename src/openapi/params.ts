/** Path and header parameters shared by many operations. */
import { z } from "zod";
import { slugSchema } from "../contract/fields";
import type { Param } from "./registry";

const path = (name: string, description: string, schema: z.ZodType = z.string()): Param => ({
  name,
  in: "path",
  description,
  schema,
  required: true,
});

export const P = {
  token: path("token", "The site's public token (`pk_…`): the credential of the public content API, safe to publish in pages."),
  siteId: path("siteId", "The site's id (16 characters of `a-z2-7`)."),
  slug: path("slug", "The collection's slug.", slugSchema),
  itemSlug: path("itemSlug", "The published item's slug."),
  itemId: path("id", "The item's id (`it_…`)."),
  workspaceId: path("id", "The workspace's id (`ws_…`)."),
  listPage: { name: "page", in: "query", description: "The list page's page number.", schema: z.int().default(1) },
  mediaId: path("mediaId", "The media entry's id (`md_…`)."),
  ifMatch: {
    name: "if-match",
    in: "header",
    description:
      'The item\'s version as you last read it, `"r<revision>"` (its `revision`): the change is refused with 412 `precondition_failed` if the item has changed since. Without it, the change goes ahead whatever happened in between.',
    schema: z.string(),
  },
  ifNoneMatch: {
    name: "if-none-match",
    in: "header",
    description: "An ETag from an earlier answer: 304 without a body while it still matches.",
    schema: z.string(),
  },
} satisfies Record<string, Param>;
