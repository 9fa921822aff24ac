/**
 * The front Worker's calls for an upload (RPC, never reachable by a client): begin before the
 * first byte, commit after the last, abort on failure. Each is checked against the caller's
 * access exactly as a dashboard request is (the same operation entry, uploadMedia), and
 * answers a refusal as data: an ApiError does not keep its code across RPC.
 */
import { ApiError } from "../../../src/contract/errors";
import type { SiteContext } from "../context";
import type { SiteAccess } from "../access/site-access";
import { recordAudit } from "../access/audit";
import { abortUpload, beginUpload, commitUpload, noteMultipart } from "./store";
import type { BeginAnswer, CommitAnswer as ContractCommitAnswer, MediaCall, Refused } from "../../../src/contract/media-calls";
import { mediaPath } from "../../../src/media/urls";
import { mediaEntry, type MediaEntry } from "../content/media-library";

export type { MediaCall, Refused, BeginAnswer } from "../../../src/contract/media-calls";
export type CommitAnswer = ContractCommitAnswer<MediaEntry>;

export function refusal(err: unknown): Refused {
  if (err instanceof ApiError) return { error: { code: err.code, message: err.message, details: err.details } };
  throw err;
}

export function mediaCall(s: SiteContext, a: SiteAccess, call: MediaCall): BeginAnswer | CommitAnswer | { done: true } {
  const site = s.site()!;
  switch (call.op) {
    case "begin":
      return beginUpload(s.sql, site.id, site.plan, call.bytes, Date.now());
    case "multipart":
      noteMultipart(s.sql, call.uploadId, call.multipartId);
      return { done: true };
    case "abort":
      abortUpload(s.sql, call.uploadId);
      return { done: true };
    case "commit": {
      const input = { ...call.input, createdBy: a.grant.actor.id };
      const done = s.storage.transactionSync(() => {
        const r = commitUpload(s.sql, input, (f) => `${input.origin}${mediaPath(site.id, f.id, f.sha256, f.name)}`);
        if (!r.duplicate) recordAudit(s.sql, a, `media ${r.id}`, { name: input.name, type: input.type, bytes: input.bytes });
        return r;
      });
      return { media: mediaEntry(s.sql, s.collections(), done.id)!, duplicate: done.duplicate, discard: done.discard };
    }
  }
}
