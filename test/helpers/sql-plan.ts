/** Helpers of the tests that hold a read's plan to the rows it reads (in the site object). */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { newBlog } from "../helpers";
import { readCollections } from "../../actors/site/content/collections";
import type { Collection } from "../../actors/site/storage/rows";

/** `sql` as the code under test sees it, counting the rows every statement it runs reads. */
export function countingSql(sql: SqlStorage): { sql: SqlStorage; rowsRead: () => number } {
  const cursors: { rowsRead: number }[] = [];
  const counting = {
    exec: (query: string, ...args: SqlStorageValue[]) => {
      const cursor = sql.exec(query, ...args);
      cursors.push(cursor);
      return cursor;
    },
  } as unknown as SqlStorage;
  return { sql: counting, rowsRead: () => cursors.reduce((n, c) => n + c.rowsRead, 0) };
}

/** Runs `body` in a new Pro blog's site object, with its `posts` collection. */
export async function inPostsSite<T>(body: (sql: SqlStorage, posts: Collection) => T): Promise<T> {
  const site = await newBlog("pro");
  return runInDurableObject(env.SITE.get(env.SITE.idFromName(site.id)), (_i: unknown, state: DurableObjectState) => {
    const sql = state.storage.sql;
    return body(
      sql,
      readCollections(sql).find((c) => c.slug === "posts")!,
    );
  });
}
