import type { z } from "zod";
import { ApiError, clip } from "../contract/errors";

/** Parses with zod and turns every issue into one 400 that names each path. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({
    path: clip(i.path.map(String).join(".") || "(body)"),
    message: clip(i.message, 300),
  }));
  const first = issues[0];
  const summary = first ? `${first.path}: ${first.message}` : "invalid";
  throw new ApiError("bad_request", `Invalid ${what}: ${summary}`, { issues });
}
