/**
 * The dashboard API of share links: create one for an item (the URL with its token is answered
 * once, here), list an item's links with their opens, revoke one. Writes are authorised per
 * operation (src/access/operations.ts) and audited in the same transaction; the token never
 * reaches a log or the audit row.
 */
import { IttyRouter, type IRequest } from "itty-router";
import { ittyRouter, type Router } from "../../shared/router";
import { ApiError, clip } from "../../../src/contract/errors";
import { PREVIEW_LINK_LIMITS } from "../../../src/contract/history-limits";
import { json, readJsonObject } from "../../../src/http/json";
import { parseBody } from "../../../src/http/validation";
import { SHARE_OPENER_PATH } from "../../../src/http/preview-page";
import { newPreviewLinkId, newPreviewToken, sha256Hex } from "../../../src/ids";
import { isSlug } from "../../../src/contract/slug";
import { previewLinkInputSchema } from "../../../src/contract/preview-links";
import type { SiteContext } from "../context";
import { ownItem, type SiteAccess } from "../access/site-access";
import { recordAudit } from "../access/audit";
import { readItem } from "../content/items";
import type { Collection } from "../storage/rows";
import { findLink, insertLink, LIVE_LIMITS, linksOfItem, liveCounts, type PreviewLinkRow, revokeLink, stateOf } from "./links-table";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function presentLink(row: PreviewLinkRow, now: number) {
  return {
    id: row.id,
    itemId: row.item_id,
    label: row.label,
    createdAt: new Date(row.created_at).toISOString(),
    createdBy: row.created_by,
    expiresAt: new Date(row.expires_at).toISOString(),
    hasPassword: row.password_hash !== null,
    maxOpens: row.max_opens,
    opens: row.opens,
    lastOpenedAt: iso(row.last_opened_at),
    revokedAt: iso(row.revoked_at),
    state: stateOf(row, now),
  };
}

export function previewLinkRoutes(s: SiteContext): Router<[SiteAccess]> {
  const router = IttyRouter<IRequest, [SiteAccess]>({ base: "/sites/:siteId/collections/:slug/items/:id" });
  const collection = (req: IRequest): Collection => {
    const slug = req.params.slug ?? "";
    const c = isSlug(slug) ? s.collections().find((x) => x.slug === slug) : undefined;
    if (!c) throw new ApiError("not_found", `No collection "${clip(slug)}".`);
    return c;
  };

  router
    .post("/preview-links", async (req, a) => {
      const c = collection(req);
      const item = readItem(s.sql, c, req.params.id ?? "");
      ownItem(a, item);
      const input = parseBody(previewLinkInputSchema, await readJsonObject(req), "share link");
      const now = Date.now();
      const live = liveCounts(s.sql, item.id, now);
      if (live.item >= LIVE_LIMITS.perItem || live.site >= LIVE_LIMITS.perSite) {
        const limit = live.item >= LIVE_LIMITS.perItem ? LIVE_LIMITS.perItem : LIVE_LIMITS.perSite;
        throw new ApiError(
          "conflict",
          `At most ${limit} share links may work at once ${limit === LIVE_LIMITS.perItem ? "per item" : "per site"}: revoke one first.`,
          { limit: "previewLinks", max: limit },
        );
      }
      const token = newPreviewToken(s.site()!.id);
      // Hashed with the accounts' KDF (loaded here only: a share link with a password is rare).
      const passwordHash =
        input.password === undefined
          ? null
          : await (async () => {
              const kdf = await import("../../../src/identity/kdf");
              return kdf.hashPassword(input.password!, kdf.kdfOf(s.env));
            })();
      const tokenHash = await sha256Hex(token);
      const row = s.storage.transactionSync(() => {
        const r = insertLink(s.sql, {
          id: newPreviewLinkId(),
          item_id: item.id,
          token_hash: tokenHash,
          label: input.label ?? "",
          created_at: now,
          created_by: a.grant.actor.label,
          created_by_id: a.grant.actor.id,
          expires_at: now + (input.expiresIn ?? PREVIEW_LINK_LIMITS.defaultSeconds) * 1000,
          password_hash: passwordHash,
          max_opens: input.maxOpens ?? null,
        });
        recordAudit(s.sql, a, `${c.slug}/${item.slug}`, {
          id: item.id,
          previewLink: r.id,
          password: passwordHash !== null,
          maxOpens: r.max_opens,
        });
        return r;
      });
      // The token after `#`: browsers never send it, so no request log or Referer holds it (src/http/share-opener.ts).
      const url = `${new URL(req.url).origin}${SHARE_OPENER_PATH}#${token}`;
      return json({ link: presentLink(row, now), url }, 201);
    })
    .get("/preview-links", (req) => {
      const item = readItem(s.sql, collection(req), req.params.id ?? "");
      const now = Date.now();
      return json({ links: linksOfItem(s.sql, item.id).map((r) => presentLink(r, now)) });
    })
    .delete("/preview-links/:linkId", (req, a) => {
      const c = collection(req);
      const item = readItem(s.sql, c, req.params.id ?? "");
      ownItem(a, item);
      const id = req.params.linkId ?? "";
      if (!findLink(s.sql, item.id, id)) throw new ApiError("not_found", `No share link "${clip(id)}" of this item.`);
      const now = Date.now();
      const row = s.storage.transactionSync(() => {
        const r = revokeLink(s.sql, id, now);
        recordAudit(s.sql, a, `${c.slug}/${item.slug}`, { id: item.id, previewLink: id, revoked: true });
        return r;
      });
      return json({ link: presentLink(row, now) });
    });
  return ittyRouter(router);
}
