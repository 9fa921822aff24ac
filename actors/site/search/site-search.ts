import { QueryVectors } from "./query-vectors";
import { ApiError, clip } from "../../../src/contract/errors";
import { entitlements, planRequired } from "../../../src/contract/plans";
import { parseLimit } from "../../../src/shared/list-params";
import { type Embedder, EmbeddingError, embedderFor } from "../../../src/search/embedder";
import { looksEnglish } from "../../../src/search/language";
import { readLocale } from "../reads/localized";
import { modelInfo } from "../../../src/search/models";
import { type VectorIndex, VectorizeVectorIndex } from "../../../src/search/vector-index";
import type { Collection, ItemRow } from "../storage/rows";
import type { SiteContext } from "../context";
import type { ItemData } from "../content/item-data";
import { type JobHandler, scheduleJob } from "../../shared/jobs";
import { backoff } from "../../../src/shared/backoff";
import { presentItems } from "../content/public-items";
import type { PublicItem } from "../../../src/contract/responses";
import { publicJson } from "../reads/public-json";
import { findPublishedIdBySlug, indexedPublishedRows, rowsByIds } from "../storage/items-table";
import { embeddingText, textHash } from "./embed-text";
import {
  failAllPending,
  retryFailed,
  forget,
  setQueuePaused,
  hasQueuedWork,
  indexViews,
  itemsWithVectors,
  markFailed,
  markIndexed,
  type QueuedRow,
  queuedBatch,
  type SearchIndexView,
} from "./index-state";
import { SqliteVectorIndex } from "./sqlite-index";
import { MAX_QUERY_CHARS, SEARCH_LIMIT, RELATED_LIMIT } from "../../../src/contract/limits";
import { log, errorText } from "../../../src/log";
import { type SearchService } from "./service";

export const INDEX_JOB = "index";
const QUEUE_KEY = "queue";
// One embedding call per batch; the local model costs about the same per text in batches of 32 and up.
const BATCH = 64;
const MAX_ATTEMPTS = 6;
// Ids per delete call when a whole site's vectors go (Vectorize takes up to 1,000 vectors per write).
const REMOVE_BATCH = 1_000;
// Fetched beyond `limit` so that matches dropped afterwards (unpublished, stale model) rarely shorten a page.
const SLACK = 10;

/**
 * A site's semantic search: keeps the vector index in step with published
 * items (through the `index` job on the site's one alarm) and answers
 * `/search` and `/related`. Embedder and index are picked by configuration
 * (`SEARCH_EMBEDDER`, `SEARCH_VECTOR_INDEX`).
 */
export class SiteSearch implements SearchService {
  #s: SiteContext;
  #env: Env;
  #embedder: Embedder | null = null;
  #index: VectorIndex | null = null;
  /** Recent queries' vectors: a repeated query costs no model call. */
  readonly queries = new QueryVectors();

  constructor(s: SiteContext, env: Env) {
    this.#s = s;
    this.#env = env;
  }

  get #model(): Embedder {
    return (this.#embedder ??= embedderFor(this.#env));
  }

  get #vectors(): VectorIndex {
    if (this.#index) return this.#index;
    if (this.#env.SEARCH_VECTOR_INDEX === "vectorize") {
      const site = this.#s.site();
      if (!this.#env.VECTORIZE) throw new Error("SEARCH_VECTOR_INDEX is vectorize but there is no VECTORIZE binding");
      if (!site) throw new Error("no site yet");
      this.#index = new VectorizeVectorIndex(this.#env.VECTORIZE, site.id);
    } else {
      this.#index = new SqliteVectorIndex(this.#s.sql);
    }
    return this.#index;
  }

  #enabled(): boolean {
    const site = this.#s.site();
    return site !== null && entitlements(site.plan).flags.aiSearch;
  }

  /**
   * When the object starts: items indexed with another model (the configuration changed) are
   * queued again, since vectors of different models are never compared; then any queued work runs.
   */
  wake(): void {
    try {
      this.followPlan();
      this.#s.sql.exec(
        `UPDATE search_index SET state = 'pending', gen = gen + 1, updated_at = ?
         WHERE state IN ('indexed', 'failed') AND model IS NOT NULL AND model <> ?`,
        new Date().toISOString(),
        this.#model.model,
      );
      this.afterWrite();
    } catch (err) {
      // A misconfigured embedder must not keep the site from serving its content.
      log("search_start_failed", { siteId: this.#s.site()?.id, error: errorText(err) });
    }
  }

  /**
   * The queue follows the plan: paused without search (a save writes no queue row), every
   * published item queued again when search comes back. Call after the site row or its plan changes.
   */
  followPlan(): void {
    if (this.#s.site() !== null) setQueuePaused(this.#s.sql, !this.#enabled());
  }

  /** After any write: queue the index job if the triggers left work for it. */
  afterWrite(): void {
    if (this.#enabled() && hasQueuedWork(this.#s.sql)) scheduleJob(this.#s.storage, INDEX_JOB, QUEUE_KEY, Date.now());
  }

  /**
   * The site is being erased (its workspace was deleted): every vector it put in the index is
   * removed through the index, in batches. The site's own SQLite index goes with its storage
   * anyway; production's shared Vectorize index would keep them otherwise. A failure throws, and
   * the workspace's retry of the deletion removes the rest.
   */
  async removeAllVectors(): Promise<number> {
    const ids = itemsWithVectors(this.#s.sql);
    for (let i = 0; i < ids.length; i += REMOVE_BATCH) await this.#vectors.remove(ids.slice(i, i + REMOVE_BATCH));
    return ids.length;
  }

  /** Index state of dashboard items; drafts have none. */
  views(itemIds: readonly string[]): Map<string, SearchIndexView> {
    return this.#enabled() ? indexViews(this.#s.sql, itemIds) : new Map();
  }

  /** Queues every failed item again; the alarm indexes them at once. */
  retryFailed(): number {
    const n = retryFailed(this.#s.sql);
    this.afterWrite();
    return n;
  }

  /** The index at a glance, for the dashboard: how many items are in each state. */
  status(): { enabled: boolean; model: string; pending: number; indexed: number; failed: number } {
    const counts = { pending: 0, indexed: 0, failed: 0 };
    for (const r of this.#s.sql.exec<{ state: string; n: number }>("SELECT state, count(*) AS n FROM search_index GROUP BY state")) {
      if (r.state === "pending" || r.state === "indexed" || r.state === "failed") counts[r.state] = r.n;
    }
    return { enabled: this.#enabled(), model: this.#model.model, ...counts };
  }

  readonly job: JobHandler = {
    run: () => this.#indexBatch(),
    maxAttempts: MAX_ATTEMPTS,
    // 5 s, 10 s, 20 s, 40 s, 80 s: a model outage of a few minutes is ridden out.
    backoffMs: backoff({ firstMs: 5_000 }),
    failed: (_key, error) => {
      log("search_indexing_gave_up", { siteId: this.#s.site()?.id, error: errorText(error) });
      failAllPending(this.#s.sql, `The embedding model failed ${MAX_ATTEMPTS} times in a row; publish the item again to retry.`);
    },
  };

  /** One batch of the queue; asks to run again at once while work is left. */
  async #indexBatch(): Promise<{ next: number } | void> {
    if (!this.#enabled()) return;
    const sql = this.#s.sql;
    const batch = queuedBatch(sql, BATCH);
    if (!batch.length) return;
    const removals = batch.filter((r) => r.state === "removing");
    const items = readItems(
      sql,
      batch.filter((r) => r.state === "pending").map((r) => r.item_id),
    );
    const collections = new Map(this.#s.collections().map((c) => [c.id, c]));
    const embedder = this.#model;
    const info = modelInfo(embedder.model);

    const work: { row: QueuedRow; item: ItemRow; collection: Collection; text: string; hash: string }[] = [];
    const upToDate: { row: QueuedRow; hash: string }[] = [];
    for (const row of batch) {
      if (row.state !== "pending") continue;
      const item = items.get(row.item_id);
      const collection = item && collections.get(item.collection_id);
      if (!item || !collection || item.status !== "published") {
        removals.push(row);
        continue;
      }
      const text = embeddingText(collection, JSON.parse(item.data) as ItemData, info.maxInputChars);
      if (!text) {
        markFailed(sql, row, "The item has no title or text to embed.");
        continue;
      }
      const hash = await textHash(embedder.model, text);
      if (row.text_hash === hash && row.model === embedder.model) upToDate.push({ row, hash });
      else work.push({ row, item, collection, text, hash });
    }

    if (removals.length) await this.#vectors.remove(removals.map((r) => r.item_id));
    if (work.length) {
      const vectors = await embedder.embed(work.map((w) => w.text));
      await this.#vectors.upsert(
        work.map((w, i) => ({ itemId: w.item.id, collectionId: w.collection.id, model: embedder.model, vector: vectors[i]! })),
      );
    }
    this.#s.storage.transactionSync(() => {
      for (const r of removals) forget(sql, r);
      for (const w of work) markIndexed(sql, w.row, embedder.model, w.hash);
      for (const u of upToDate) markIndexed(sql, u.row, embedder.model, u.hash);
    });
    // What search answers has changed: retire the cached search and related answers (only those).
    if (removals.length || work.length) this.#s.searchChanged();
    if (hasQueuedWork(sql)) return { next: Date.now() };
  }

  async search(url: URL, beforeModelCall?: () => void): Promise<Response> {
    const site = this.#requireSearch();
    const q = (url.searchParams.get("q") ?? "").trim();
    if (!q) throw new ApiError("bad_request", "Send the search text as q.", { parameter: "q" });
    if (q.length > MAX_QUERY_CHARS) {
      throw new ApiError("bad_request", `q is longer than ${MAX_QUERY_CHARS} characters.`, { parameter: "q", max: MAX_QUERY_CHARS });
    }
    const collection = this.#collectionParam(url.searchParams.get("collection"));
    const limit = parseLimit(url.searchParams.get("limit"), SEARCH_LIMIT.fallback, SEARCH_LIMIT.max);
    // The models are English-only, and the index holds the items' own (primary) text: another
    // language, or a read in a secondary locale, would only match by accident.
    if (!looksEnglish(q) || inSecondaryLocale(this.#s, url)) return publicJson(site.id, collection?.id ?? null, { results: [] });
    const embedder = this.#model;
    const info = modelInfo(embedder.model);
    let vector: number[];
    try {
      vector = await this.queries.vectorOf(embedder.model, q.slice(0, info.maxInputChars), async (text) => {
        beforeModelCall?.();
        return ((await embedder.embed([text])) as [number[]])[0];
      });
    } catch (err) {
      if (!(err instanceof EmbeddingError)) throw err;
      log("search_query_failed", { siteId: this.#s.site()?.id, error: errorText(err) });
      throw new ApiError("embedding_failed", "The search model is unavailable right now; please retry.");
    }
    const matches = await this.#vectors.query(vector, {
      model: embedder.model,
      topK: limit + SLACK,
      ...(collection ? { collectionId: collection.id } : {}),
    });
    const results = this.#present(matches, info.threshold, embedder.model, limit).map(({ item, score }) => ({
      item,
      score: Math.round(score * 10_000) / 10_000,
    }));
    return publicJson(site.id, collection?.id ?? null, { results });
  }

  async related(slug: string, itemSlug: string, url: URL): Promise<Response> {
    const site = this.#requireSearch();
    const collection = this.#collectionParam(slug);
    if (!collection) throw new ApiError("not_found", `No collection "${clip(slug)}".`);
    const limit = parseLimit(url.searchParams.get("limit"), RELATED_LIMIT.fallback, RELATED_LIMIT.max);
    if (inSecondaryLocale(this.#s, url)) return publicJson(site.id, collection.id, { items: [] });
    const id = findPublishedIdBySlug(this.#s.sql, collection.id, itemSlug);
    if (id === undefined) throw new ApiError("not_found", `No published item "${clip(itemSlug)}" in "${collection.slug}".`);
    // The item's stored vector, embedded when it was published: no model call per request.
    const model = this.#model.model;
    const vector = await this.#vectors.vectorOf(id, model);
    let items: PublicItem[] = [];
    if (vector) {
      const matches = await this.#vectors.query(vector, { model, topK: limit + SLACK, collectionId: collection.id, excludeItemId: id });
      items = this.#present(matches, modelInfo(model).threshold, model, limit).map((m) => m.item);
    }
    return publicJson(site.id, collection.id, { items });
  }

  #requireSearch() {
    const site = this.#s.site()!;
    if (!entitlements(site.plan).flags.aiSearch) throw planRequired("aiSearch");
    return site;
  }

  #collectionParam(slug: string | null): Collection | null {
    if (slug === null || slug === "") return null;
    const c = this.#s.collections().find((x) => x.slug === slug);
    if (!c) throw new ApiError("not_found", `No collection "${clip(slug)}".`);
    return c;
  }

  /** Published, indexed items above the model's threshold, best first. */
  #present(matches: readonly { itemId: string; score: number }[], threshold: number, model: string, limit: number) {
    const relevant = matches.filter((m) => m.score >= threshold);
    if (!relevant.length) return [];
    const rows = indexedPublishedRows(
      this.#s.sql,
      relevant.map((m) => m.itemId),
      model,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const kept = relevant.filter((m) => byId.has(m.itemId)).slice(0, limit);
    const items = presentItems(
      this.#s.sql,
      kept.map((m) => byId.get(m.itemId)!),
      this.#s.collections(),
      this.#s.publicStaleAfter(),
    );
    return kept.map((m, i) => ({ item: items[i]!, score: m.score }));
  }
}

function readItems(sql: SqlStorage, ids: readonly string[]): Map<string, ItemRow> {
  const rows = rowsByIds(sql, ids);
  return new Map(rows.map((r) => [r.id, r]));
}

/** Whether a search or related read names a secondary locale (an unknown one is the 400 of reads/localized.ts). */
function inSecondaryLocale(s: SiteContext, url: URL): boolean {
  const read = readLocale(s.locales(), url.searchParams);
  return read !== null && !read.locale.primary;
}
