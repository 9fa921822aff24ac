/**
 * Rebuilding the kept public JSON of every item with media after the site's image resizing
 * hosts changed (PATCH /sites/:siteId `imageResizingHosts`), in chunks on the object's one alarm:
 * a site with many items must not rebuild them all in one request (bounded work per request).
 *
 * While a rebuild runs, the kept JSON of an item of a collection with media fields is trusted
 * only up to the rebuild's cursor (items in `seq` order): a later item's public JSON is computed
 * from its data when read, with the new hosts. So every read shows the new srcset from the moment
 * the PATCH returns, as before, and the stored copies catch up a chunk per alarm run. The cursor
 * lives in the object's key-value storage, so a restart resumes where the rebuild stopped.
 */
import type { Collection } from "../storage/rows";
import { dataAfterSeq } from "../storage/items-table";
import { type JobHandler, scheduleJob } from "../../shared/jobs";
import { hasFullPublicCopies, keepPublicData } from "../content/public-items";
import { hasMediaFields } from "../content/media-fields";
import type { ItemData } from "../content/item-data";

export const PUBLIC_REBUILD_JOB = "public-json-rebuild";
/** Items rewritten per alarm run: about a few milliseconds of the object's thread. */
export const PUBLIC_REBUILD_CHUNK = 200;
/** The rebuild's cursor (the last `seq` rebuilt) in the object's key-value storage; absent when none runs. */
const CURSOR_KEY = "publicJsonRebuiltThrough";
/** Set once the public JSON kept in full before it could be the data with media laid over (site migration 32) was rewritten. */
const MEDIA_FORM_KEY = "publicJsonMediaForm";

export class PublicRebuild {
  readonly #storage: DurableObjectStorage;
  #through: number | null;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
    this.#through = storage.kv.get<number>(CURSOR_KEY) ?? null;
  }

  /**
   * Null when every kept public JSON is current; otherwise the `seq` through which the kept
   * JSON of items with media is current (later ones are computed when read).
   */
  get staleAfter(): number | null {
    return this.#through;
  }

  /** The hosts changed: every item with media is rebuilt from the start (a rebuild already running starts over). */
  start(): void {
    this.#set(0);
    scheduleJob(this.#storage, PUBLIC_REBUILD_JOB, "all", Date.now());
  }

  /** Once per site: a rebuild of every item with media, when some are still kept as full copies. */
  rewriteFullCopiesOnce(): void {
    if (this.#storage.kv.get(MEDIA_FORM_KEY)) return;
    this.#storage.kv.put(MEDIA_FORM_KEY, true);
    if (hasFullPublicCopies(this.#storage.sql)) this.start();
  }

  /** The alarm's job: one chunk per run, then again at once until every item with media is rewritten. */
  job(collections: () => readonly Collection[]): JobHandler {
    return {
      run: () => {
        const from = this.#through;
        if (from === null) return;
        const byId = new Map(collections().map((c) => [c.id, c]));
        const rows = dataAfterSeq(this.#storage.sql, from, PUBLIC_REBUILD_CHUNK);
        this.#storage.transactionSync(() => {
          for (const r of rows) {
            const c = byId.get(r.collection_id);
            if (c && hasMediaFields(c)) keepPublicData(this.#storage.sql, c, r.seq, JSON.parse(r.data) as ItemData);
          }
          this.#set(rows.length < PUBLIC_REBUILD_CHUNK ? null : rows[rows.length - 1]!.seq);
        });
        return this.#through === null ? undefined : { next: Date.now() };
      },
    };
  }

  #set(through: number | null): void {
    this.#through = through;
    if (through === null) this.#storage.kv.delete(CURSOR_KEY);
    else this.#storage.kv.put(CURSOR_KEY, through);
  }
}
