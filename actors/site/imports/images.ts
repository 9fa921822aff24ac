/**
 * An import's images given as URLs, copied into the media library before the rows of a slice are
 * written: each distinct URL of the slice's image, video and gallery cells is fetched through the safe
 * fetcher and stored as an upload is (media/copy.ts fetchIntoLibrary: the same address rules, type
 * sniffing, limits and workspace storage; the same bytes twice are one file). The rows then name
 * the library's file. A URL that cannot be copied stays URL media, and the row's report line says
 * why (a note, not a failure). Bounded per slice: at most SLICE_ROWS rows' URLs, COPIES_AT_ONCE
 * at a time, each within COPY_TIMEOUT_MS; the site answers its reads and writes meanwhile.
 */
import type { ImportProblem } from "../../../src/contract/imports";
import { ApiError } from "../../../src/contract/errors";
import { ACCESS_BY_ID } from "../../../src/access/operations";
import type { Actor } from "../../../src/access/grant";
import type { SiteContext } from "../context";
import type { SiteAccess } from "../access/site-access";
import { fetchIntoLibrary } from "../media/copy";
import type { PlanContext, RowPlan } from "./plan";
import { actorOf, type ImportRow } from "./store";

/** Copies of one slice at once: the host is a customer's, asked no harder than a browser would. */
const COPIES_AT_ONCE = 4;
/** A copy that takes longer keeps its URL (the library's own copy allows a minute; an import has many). */
export const COPY_TIMEOUT_MS = 20_000;

/** URL → the library's media id, or why it stays a link. */
export type Copies = Map<string, { mediaId: string } | { reason: string }>;

/** The image, video and gallery fields a row fills from URLs: field key → its URLs (one, or a gallery's in order). */
export function imageUrlsOf(p: PlanContext, plan: RowPlan): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of p.fields) {
    if (f.type !== "image" && f.type !== "video" && f.type !== "gallery") continue;
    const v = plan.values[f.key];
    const entries = Array.isArray(v) ? v : [v];
    const urls = entries
      .map((e) => (e as { url?: unknown } | null | undefined)?.url)
      .filter((u): u is string => typeof u === "string" && u !== "");
    if (urls.length) out.set(f.key, urls);
  }
  return out;
}

/**
 * Who copies: the person who started the import (its audit rows and the files' `created_by`),
 * through the same operation as an upload. The start checked they may add media (routes.ts).
 */
function copierOf(imp: ImportRow): SiteAccess {
  const actor = actorOf(imp) as Actor;
  return {
    entry: ACCESS_BY_ID.get("uploadMedia")!,
    // Only what copying needs; the role is read by no code the copy runs (messages of refusals elsewhere).
    grant: { permissions: new Set(["media.create"]), role: "contributor", actor },
    mode: "any",
    client: { ip: null, country: null },
    recorded: false,
  };
}

/** Copies the URLs not copied yet (`known` holds this import's earlier answers) and answers all of them. */
export async function copyImages(s: SiteContext, imp: ImportRow, urls: ReadonlySet<string>, known: Copies): Promise<Copies> {
  const out: Copies = new Map();
  const todo: string[] = [];
  for (const url of urls) {
    const k = known.get(url);
    if (k) out.set(url, k);
    else todo.push(url);
  }
  const a = copierOf(imp);
  const origin = imp.media_origin!;
  const one = async (): Promise<void> => {
    for (let url = todo.shift(); url !== undefined; url = todo.shift()) {
      let answer: { mediaId: string } | { reason: string };
      try {
        const copied = await fetchIntoLibrary(s, a, url, { origin, timeoutMs: COPY_TIMEOUT_MS });
        answer = { mediaId: copied.media.mediaId };
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        answer = { reason: err.message };
      }
      out.set(url, answer);
      known.set(url, answer);
    }
  };
  await Promise.all(Array.from({ length: Math.min(COPIES_AT_ONCE, todo.length) }, one));
  return out;
}

/**
 * The row's image cells as the library's files where they were copied (the plan's values then
 * name media ids); a note for each that stays a link.
 */
export function useCopies(p: PlanContext, plan: RowPlan, copies: Copies): ImportProblem[] {
  const notes: ImportProblem[] = [];
  for (const [key, urls] of imageUrlsOf(p, plan)) {
    const ids = urls.map((url) => {
      const c = copies.get(url);
      if (!c || "mediaId" in c) return c?.mediaId ?? { url };
      notes.push({
        column: p.mapping.find((m) => m.field === key)?.column ?? key,
        value: url,
        // The copy's refusal says what happened ("Cannot copy the file: … answered HTTP 404.").
        reason: `kept as a link, not in the media library: ${c.reason}`,
      });
      return { url };
    });
    // A gallery's entries each become a library id or stay a link, in their order.
    plan.values[key] = Array.isArray(plan.values[key]) ? ids : ids[0];
  }
  return notes;
}
