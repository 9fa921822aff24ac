import { planChange } from "../../../src/contract/plan-offer";
import { IttyRouter, type IRequest } from "itty-router";
import { ittyRouter, type Router } from "../../shared/router";
import { ApiError, clip } from "../../../src/contract/errors";
import { MEDIA_IDS_MAX } from "../../../src/contract/limits";
import { json, readJsonObject } from "../../../src/http/json";
import { parseBody } from "../../../src/http/validation";
import { isSlug, SLUG_RULE } from "../../../src/contract/slug";
import { parseLimit, parsePage } from "../../../src/shared/list-params";
import { entitlements } from "../../../src/contract/plans";
import { type Collection, type ItemRow } from "../storage/rows";
import { deleteCollection, putCollection } from "../content/collections";
import { collectionInputSchema } from "../../../src/contract/fields";
import { seoDefaultsOf, titleFieldOf } from "../../../src/contract/item-title";
import { batchInputSchema, itemPatchSchema, publishItemsSchema } from "../../../src/contract/items";
import { changeStatus, publishItems } from "./publishing";
import {
  changedPublicKeys,
  createItems,
  deleteItem,
  patchItem,
  itemToChange,
  lookupsFor,
  readItem,
  stampAuthor,
  toDashboardItem,
} from "../content/items";
import type { ItemData } from "../content/item-data";
import { insertMedia, newMedia, toMediaRef } from "../content/media";
import { readImageResizingHosts, setAdminKeyHash, updateSite } from "../storage/site-row";
import { dashboardListQuery, listDashboardItems } from "../reads/dashboard-list";
import { listMedia, updateMedia } from "../content/media-library";
import { siteStats } from "../reads/overview";
import { newAdminKey, sha256Hex } from "../../../src/ids";
import { SessionStore } from "../../shared/session-store";
import type { SiteContext } from "../context";
import { mediaInputSchema, mediaPatchSchema, sitePatchSchema } from "../../../src/contract/sites";
import { needs, ownItem, type SiteAccess } from "../access/site-access";
import { recordAudit } from "../access/audit";
import { deleteMediaEntry } from "../media/delete";
import { copyMediaIntoLibrary } from "../media/copy";
import { pendingOf } from "../storage/pending-table";
import { latestRevisions } from "../storage/revisions-table";
import { accessView, type Actor } from "../../../src/access/grant";
import { findLocale } from "../storage/locale-set";
import { markTranslationsStale, TRANSLATIONS_SEARCH_JOB } from "../storage/locales-table";
import { scheduleJob } from "../../shared/jobs";

/**
 * The site's dashboard API. The front Worker has already checked the caller
 * (src/identity/site-auth.ts `authorizeSite`: the operator, or this site's admin key or session).
 */
export function dashboardRoutes(s: SiteContext): Router<[SiteAccess]> {
  const router = IttyRouter<IRequest, [SiteAccess]>({ base: "/sites/:siteId" });
  // Every change writes its audit row inside its own transaction (access/audit.ts).
  const audit = (a: SiteAccess, target: string, details?: unknown) => recordAudit(s.sql, a, target, details);
  const collection = (slug: string): Collection => {
    const c = s.collections().find((x) => x.slug === slug);
    if (!c) throw new ApiError("not_found", `No collection "${slug}".`);
    return c;
  };
  const slugParam = (req: IRequest): string => {
    const slug = req.params.slug ?? "";
    if (!isSlug(slug)) throw new ApiError("bad_request", `"${clip(slug)}" is not a valid collection slug (${SLUG_RULE}).`);
    return slug;
  };
  // The dashboard's item, with its place in the search index (null for drafts and below Pro).
  // `values`: the rows' data as objects, when the caller holds them (a save parsed them already).
  // `known`: the rows' versions, when the caller knows them (a save recorded one): not read again.
  const dashboardItems = (rows: readonly ItemRow[], c: Collection, values?: readonly ItemData[], known?: readonly number[]) => {
    const views = s.search().views(rows.map((r) => r.id));
    const revisions = known
      ? new Map(rows.map((r, i) => [r.id, known[i] ?? 0]))
      : latestRevisions(
          s.sql,
          rows.map((r) => r.id),
        );
    const pending = pendingOf(
      s.sql,
      rows.map((r) => r.seq),
    );
    return rows.map((row, i) => ({
      ...toDashboardItem(row, c, revisions.get(row.id) ?? 0, pending.get(row.seq), values?.[i]),
      searchIndex: views.get(row.id) ?? null,
    }));
  };
  const dashboardItem = (row: ItemRow, c: Collection, data?: ItemData, revision?: number) =>
    dashboardItems([row], c, data && [data], revision === undefined ? undefined : [revision])[0];

  router
    .get("/", (_req, a) => {
      const site = s.site();
      if (!site) throw new ApiError("not_found", "No such site.");
      return json({ site: presentSite(site), access: accessView(a.grant), planChange: planChange(s.env) });
    })
    .patch("/", async (req, a) => {
      // The owner renames the site in the dashboard's Settings; the name can appear on rendered pages.
      const patch = parseBody(sitePatchSchema, await readJsonObject(req), "site");
      const hosts = patch.imageResizingHosts ? [...new Set(patch.imageResizingHosts)] : undefined;
      const before = [...readImageResizingHosts(s.sql)].join(",");
      s.storage.transactionSync(() => {
        updateSite(s.sql, { ...patch, imageResizingHosts: hosts });
        audit(a, `site ${s.site()!.id}`, { fields: Object.keys(patch) });
      });
      // Every published srcset follows the new hosts at once: reads compute the public JSON of items
      // with media until the alarm has rewritten their kept copies, a chunk per run (bounded work per
      // request however many items the site has; reads/public-rebuild.ts). No await since the write:
      // the object's implicit transaction holds both.
      if (hosts && hosts.join(",") !== before) s.rebuildPublicData();
      s.siteChanged();
      s.cacheChanged();
      return json({ site: presentSite(s.site()!) });
    })
    // Uploads are streamed into R2 by the front Worker (src/media/upload-route.ts), which calls
    // this object's mediaUpload; a body sent here directly is not read.
    .delete("/media/:mediaId", async (req, a) => {
      const detach = new URL(req.url).searchParams.get("detach") === "true";
      const { detached } = await deleteMediaEntry(s, a, req.params.mediaId ?? "", detach);
      return json({ deleted: true, id: req.params.mediaId, detached });
    })
    .post("/media/:mediaId/copy", async (req, a) => {
      const copied = await copyMediaIntoLibrary(s, a, req.params.mediaId ?? "", new URL(req.url).origin);
      return json(copied);
    })
    .post("/media/files", () => {
      throw new ApiError("bad_request", "Upload files through the service's API: POST /sites/:siteId/media/files.");
    })
    .put("/media/:mediaId/file", () => {
      throw new ApiError("bad_request", "Replace files through the service's API: PUT /sites/:siteId/media/:mediaId/file.");
    })
    .get("/search", () => json({ search: s.search().status() }))
    .post("/search/retry", (_req, a) => {
      const retried = s.storage.transactionSync(() => {
        const n = s.search().retryFailed();
        audit(a, "search index", { retried: n });
        return n;
      });
      return json({ retried, search: s.search().status() });
    })
    .get("/stats", () => json({ stats: siteStats(s.sql, s.collections()) }))
    .post("/admin-key", async (_req, a) => {
      // The new key is shown once; the old key and every session made with it stop working now.
      const adminKey = newAdminKey(s.site()!.id);
      const hash = await sha256Hex(adminKey);
      s.storage.transactionSync(() => {
        setAdminKeyHash(s.sql, hash, adminKeyHolder(a.grant.actor, s.site()!.adminKeyBy));
        new SessionStore(s.sql).endAll();
        audit(a, "site admin key");
      });
      s.siteChanged();
      return json({ adminKey });
    })
    .get("/media", (req) => {
      const url = new URL(req.url);
      const page = parsePage(url.searchParams.get("page"));
      const limit = parseLimit(url.searchParams.get("limit"));
      const { media, total } = listMedia(s.sql, s.collections(), page, limit, mediaIdsParam(url.searchParams.get("ids")));
      return json({ media, page, limit, total, totalPages: Math.ceil(total / limit) });
    })
    .patch("/media/:id", async (req, a) => {
      const patch = parseBody(mediaPatchSchema, await readJsonObject(req), "media");
      const media = s.storage.transactionSync(() => {
        const m = updateMedia(s.sql, s.collections(), req.params.id ?? "", patch);
        audit(a, `media ${req.params.id ?? ""}`, { fields: Object.keys(patch) });
        return m;
      });
      // Published items show media alt text and focal points; cached answers must follow.
      s.contentChanged();
      return json({ media });
    })
    .get("/collections", () => json({ collections: s.collections().map(collectionAnswer) }))
    .get("/collections/:slug", (req) => json({ collection: collectionAnswer(collection(slugParam(req))) }))
    .put("/collections/:slug", async (req, a) => {
      const slug = slugParam(req);
      const input = parseBody(collectionInputSchema, await readJsonObject(req), "collection");
      // `If-None-Match: *` means "only if no collection has this slug" (RFC 9110 §13.1.2).
      const createOnly = req.headers.get("if-none-match")?.trim() === "*";
      const result = s.storage.transactionSync(() => {
        const r = putCollection(s.sql, s.collections(), slug, input, createOnly, { actor: a.grant.actor });
        audit(a, `collection ${slug}`, { created: r.created });
        // Which fields are translated or searched may have changed: the translations' texts follow.
        if (!r.created && markTranslationsStale(s.sql, r.collection.id) > 0)
          scheduleJob(s.storage, TRANSLATIONS_SEARCH_JOB, "all", Date.now());
        return r;
      });
      s.collectionsChanged();
      s.contentChanged();
      return json({ collection: collectionAnswer(result.collection) }, result.created ? 201 : 200);
    })
    .delete("/collections/:slug", (req, a) => {
      const slug = slugParam(req);
      s.storage.transactionSync(() => {
        deleteCollection(s.sql, s.collections(), slug, { actor: a.grant.actor });
        audit(a, `collection ${slug}`);
      });
      s.collectionsChanged();
      s.contentChanged();
      return json({ deleted: true, slug });
    })
    .post("/media", async (req, a) => {
      const input = parseBody(mediaInputSchema, await readJsonObject(req), "media");
      const row = newMedia(input);
      s.storage.transactionSync(() => {
        insertMedia(s.sql, row);
        audit(a, `media ${row.id}`, { url: row.url });
      });
      return json({ media: toMediaRef(row, readImageResizingHosts(s.sql)) }, 201);
    })
    .post("/collections/:slug/:itemsPath", async (req, a) => {
      const c = collection(slugParam(req));
      const lookups = lookupsFor(s.sql, s.collections());
      // Creating, and the audit rows and authorship of what was created, in one transaction.
      const create = (inputs: readonly unknown[], path: (i: number) => string) => {
        // Creating an item already published needs the right to publish one's own.
        if (inputs.some((x) => (x as { publish?: unknown } | null)?.publish === true)) needs(a, "items.publish.own");
        return createItems(s.storage, c, lookups, inputs, path, { actor: a.grant.actor }, (created) => {
          const rows = stampAuthor(s.sql, created, a.grant.actor.id, true);
          for (const r of rows) audit(a, `${c.slug}/${r.slug}`, { id: r.id, status: r.status });
          return rows;
        });
      };
      if (req.params.itemsPath === "items") {
        const [row] = await create([await readJsonObject(req)], () => "");
        if (row?.status === "published") s.contentChanged([row.id]);
        return json({ item: dashboardItem(row!, c) }, 201);
      }
      if (req.params.itemsPath === "items:batch") {
        const { items } = parseBody(batchInputSchema, await readJsonObject(req), "batch");
        const rows = await create(items, (i) => `items.${i}`);
        if (rows.some((r) => r.status === "published")) s.contentChanged(rows.map((r) => r.id));
        return json({ items: dashboardItems(rows, c), count: rows.length }, 201);
      }
      if (req.params.itemsPath === "items:publish") {
        const { ids } = parseBody(publishItemsSchema, await readJsonObject(req), "publish");
        const changed = publishItems(s, a, c, ids);
        if (changed.length) s.contentChanged(changed);
        return json({ ids, published: changed.length, unchanged: ids.length - changed.length });
      }
      return undefined;
    })
    .get("/collections/:slug/items", (req) => {
      const c = collection(slugParam(req));
      const url = new URL(req.url);
      const page = parsePage(url.searchParams.get("page"));
      const limit = parseLimit(url.searchParams.get("limit"));
      const missing = url.searchParams.get("missing");
      const query = { ...dashboardListQuery(url, page, limit), missing: missing === null ? null : missingLocale(s, missing) };
      const { rows, total } = listDashboardItems(s.sql, c, s.collections(), query);
      return json({ items: dashboardItems(rows, c), page, limit, total, totalPages: Math.ceil(total / limit) });
    })
    .get("/collections/:slug/items/:id", (req) => {
      const c = collection(slugParam(req));
      return json({ item: dashboardItem(readItem(s.sql, c, req.params.id ?? ""), c) });
    })
    .patch("/collections/:slug/items/:id", async (req, a) => {
      // The body first: from here on nothing awaits, so the row read below is the row the
      // change is made to (patchItem neither reads it again nor stamps the author apart).
      const body = await readJsonObject(req);
      const c = collection(slugParam(req));
      const row = itemToChange(s.sql, c, req.params.id ?? "", req);
      ownItem(a, row);
      const patch = parseBody(itemPatchSchema, body, "item");
      const {
        row: updated,
        values,
        revision,
        unchanged,
      } = s.storage.transactionSync(() => {
        const u = patchItem(s.sql, c, lookupsFor(s.sql, s.collections()), row, patch, { actor: a.grant.actor });
        // The status says whether the saved changes went live at once (a published item's), which
        // the Activity words as "saved changes and published"; `unchanged` a save that changed nothing.
        audit(a, `${c.slug}/${u.row.slug}`, { id: u.row.id, status: u.row.status, ...(u.unchanged ? { unchanged: true } : {}) });
        return u;
      });
      // An edit that kept the item published joins or leaves no list: the keys it changed let lists
      // that show other items and depend on none of them be carried (docs/caching.md).
      if (updated.status === "published" && !unchanged)
        s.contentChanged([updated.id], row.status === "published" ? changedPublicKeys(row, updated, values) : undefined);
      return json({ item: dashboardItem(updated, c, values.after, revision) });
    })
    .delete("/collections/:slug/items/:id", (req, a) => {
      const c = collection(slugParam(req));
      const row = itemToChange(s.sql, c, req.params.id ?? "", req);
      ownItem(a, row);
      s.storage.transactionSync(() => {
        deleteItem(s.sql, row, { actor: a.grant.actor });
        audit(a, `${c.slug}/${row.slug}`, { id: row.id });
      });
      if (row.status === "published") s.contentChanged([row.id]);
      return json({ deleted: true, id: row.id });
    })
    .post("/collections/:slug/items/:id/:action", (req, a) => {
      const action = req.params.action;
      if (action !== "publish" && action !== "unpublish") return undefined;
      const c = collection(slugParam(req));
      const row = itemToChange(s.sql, c, req.params.id ?? "", req);
      ownItem(a, row);
      const keepSchedule = new URL(req.url).searchParams.get("keepSchedule") === "true";
      const next = s.storage.transactionSync(() => changeStatus(s, a, c, row, action, keepSchedule));
      if (row.status !== next.status || next.status === "published") s.contentChanged([row.id]);
      return json({ item: dashboardItem(next, c) });
    });
  return ittyRouter(router);
}

/**
 * Who holds the admin key once `actor` rotated it: the one shown it, except when the key itself
 * asked (its holder gets the new one, so the holder stays whoever it was).
 */
function adminKeyHolder(actor: Actor, holder: string | null): string | null {
  if (actor.kind === "siteKey") return holder;
  return actor.kind === "operator" ? "operator" : actor.id;
}

export function presentSite(site: NonNullable<ReturnType<SiteContext["site"]>>) {
  return {
    id: site.id,
    name: site.name,
    workspaceId: site.workspaceId,
    plan: site.plan,
    token: site.token,
    imageResizingHosts: site.imageResizingHosts,
    ...entitlements(site.plan),
    createdAt: site.createdAt,
    updatedAt: site.updatedAt,
  };
}

/**
 * A collection as the dashboard API answers it: with the field that names its items and the
 * fields its SEO tags default to, decided here (src/contract/item-title.ts) so the dashboard
 * shows what the service does instead of guessing.
 */
function collectionAnswer(c: Collection) {
  return { ...c, titleField: titleFieldOf(c.fields)?.key ?? null, seoDefaults: seoDefaultsOf(c.fields) };
}

/** The secondary locale `missing=` names, or a 400 naming the site's secondaries. */
function missingLocale(s: SiteContext, raw: string): number {
  const locale = findLocale(s.locales(), raw);
  if (!locale || locale.primary) {
    const allowed = s
      .locales()
      .all.filter((l) => !l.primary)
      .map((l) => l.code);
    throw new ApiError("bad_request", `missing takes one of the site's secondary locales (${allowed.join(", ") || "none set"}).`, {
      parameter: "missing",
      allowed,
    });
  }
  return locale.id;
}

/** `ids=md_a,md_b`: at most MEDIA_IDS_MAX media ids, or a 400 naming the parameter. */
function mediaIdsParam(raw: string | null): string[] | null {
  if (raw === null) return null;
  const ids = raw.split(",").filter(Boolean);
  if (ids.length > MEDIA_IDS_MAX || ids.some((id) => id.length > 64)) {
    throw new ApiError("bad_request", `ids takes at most ${MEDIA_IDS_MAX} media ids.`, { parameter: "ids", max: MEDIA_IDS_MAX });
  }
  return ids;
}
