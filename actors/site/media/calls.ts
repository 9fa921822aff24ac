/**
 * The front Worker's calls for an upload (RPC, never reachable by a client): begin before the
 * first byte, commit after the last, abort on failure. Each is checked against the caller's
 * access exactly as a dashboard request is (the same operation entry, uploadMedia), and
 * answers a refusal as data: an ApiError does not keep its code across RPC.
 */
import type { SiteContext } from "../context";
import type { SiteAccess } from "../access/site-access";
import { recordAudit } from "../access/audit";
import { abortUpload, beginUpload, commitReplace, commitUpload, noteMultipart, UPLOAD_TTL_MS } from "./store";
import { rewriteUses } from "./rewrite-uses";
import { reserveStorage, settleStorage } from "./quota";
import { randomHex } from "../../../src/ids";
import type { BeginAnswer, CommitAnswer as ContractCommitAnswer, MediaCall } from "../../../src/contract/media-calls";
import { mediaPath } from "../../../src/media/urls";
import { mediaEntry, type MediaEntry, usesOfOne } from "../content/media-library";

export type { MediaCall, BeginAnswer } from "../../../src/contract/media-calls";
export type CommitAnswer = ContractCommitAnswer<MediaEntry>;

export async function mediaCall(s: SiteContext, a: SiteAccess, call: MediaCall): Promise<BeginAnswer | CommitAnswer | { done: true }> {
  const site = s.site()!;
  switch (call.op) {
    case "begin": {
      const uploadId = randomHex(16);
      const now = Date.now();
      // The workspace refuses (413 storage) before this object opens anything.
      await reserveStorage(s, uploadId, call.bytes, now + UPLOAD_TTL_MS);
      return beginUpload(s.sql, site.id, uploadId, call.bytes, now);
    }
    case "multipart":
      noteMultipart(s.sql, call.uploadId, call.multipartId);
      return { done: true };
    case "abort":
      abortUpload(s.sql, call.uploadId);
      await settleStorage(s, [call.uploadId]);
      return { done: true };
    case "commit": {
      const input = { ...call.input, createdBy: a.grant.actor.id };
      const urlOf = (f: { id: string; sha256: string; name: string }) => `${input.origin}${mediaPath(site.id, f.id, f.sha256, f.name)}`;
      const replaces = input.replaces;
      let published = false;
      const done = s.storage.transactionSync(() => {
        const r = replaces ? commitReplace(s.sql, { ...input, replaces }, urlOf) : commitUpload(s.sql, input, urlOf);
        if (replaces && !r.duplicate) {
          // Every item showing it shows the new file: its kept public JSON again, and a revision.
          const uses = usesOfOne(s.sql, s.collections(), replaces);
          published = rewriteUses(s, a, uses, (m) => m, "media replaced").published;
        }
        if (!r.duplicate)
          recordAudit(s.sql, a, `media ${r.id}`, {
            name: input.name,
            type: input.type,
            bytes: input.bytes,
            replaced: replaces !== undefined,
          });
        return r;
      });
      if (published) s.contentChanged();
      await settleStorage(s, [input.uploadId]);
      return { media: mediaEntry(s.sql, s.collections(), done.id)!, duplicate: done.duplicate, discard: done.discard };
    }
  }
}
