import { z } from "zod";
import { PLANS } from "./plans";
import { isHttpUrl } from "./urls";
import { keySignInSchema, passwordSignInSchema } from "./accounts";

const name = z.string().trim().min(1).max(200);
export const workspaceCreate = z.object({ name, plan: z.enum(PLANS) }).strict();
export const workspacePatch = z
  .object({ name: name.optional(), plan: z.enum(PLANS).optional() })
  .strict()
  .refine((p) => p.name !== undefined || p.plan !== undefined, { message: "send name and/or plan" });
export const siteCreate = z
  .object({ name, workspaceId: z.string().optional(), plan: z.enum(PLANS).optional() })
  .strict()
  .refine((s) => !(s.workspaceId && s.plan), {
    message: "a site in an existing workspace takes that workspace's plan; change the plan with PATCH /workspaces/:id",
    path: ["plan"],
  });

/** A bare hostname (an image URL's host, matched without port). */
const IMAGE_HOST = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/;

export const sitePatchSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    imageResizingHosts: z
      .array(z.string().trim().toLowerCase().max(253).regex(IMAGE_HOST, "must be a hostname like images.example.com"))
      .max(20)
      .optional()
      .describe(
        "Hostnames of the site's images that are Cloudflare zones with Image Resizing on: their images get a srcset of resized widths (`/cdn-cgi/image/width=W,format=auto/…`). Images anywhere else get a srcset naming the original only.",
      ),
  })
  .strict();

export const mediaInputSchema = z
  .object({
    url: z.string().refine(isHttpUrl, "must be an absolute http(s) URL"),
    alt: z.string().max(1000).optional(),
    width: z.number().int().positive().max(100_000).optional(),
    height: z.number().int().positive().max(100_000).optional(),
  })
  .strict();

/** A point of an image, 0–1 across and 0–1 down: what crops keep in view (CSS `object-position`). */
export const focalSchema = z.strictObject({ x: z.number().min(0).max(1), y: z.number().min(0).max(1) });

export const mediaPatchSchema = z
  .object({
    alt: z.string().max(1000).optional(),
    focal: focalSchema.nullable().optional().describe("The focal point; null puts it back in the centre."),
  })
  .strict()
  .refine((p) => p.alt !== undefined || p.focal !== undefined, "send `alt`, `focal` or both");

/** `POST /sessions`: a site admin key or the operator token, or an account's email and password. */
export const signInSchema = z.union([keySignInSchema, passwordSignInSchema]);
