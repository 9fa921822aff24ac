// Every page of a filtered list of up to ORDER_MEMO_ROWS rows is a slice of its whole order, read
// once per version. That read goes through the filter's index and sorts its rows: walking the
// sort key's index instead would read every item of the collection to test its filter (on 10,000
// items, a filter that keeps 1,000 cost 42 ms of CPU a miss that way).
import { expect, it } from "vitest";
import { buildListQuery } from "../actors/site/reads/list-query";
import { searchMatch } from "../actors/site/storage/search-index";
import { readCollections } from "../actors/site/content/collections";
import { dashboardListQuery, listDashboardItems } from "../actors/site/reads/dashboard-list";
import { publishedPage } from "../actors/site/storage/list-queries";
import { countingSql, inPostsSite } from "./helpers/sql-plan";

it("reads a filtered list's whole order through the filter's index, in the same order", async () => {
  await inPostsSite((sql, posts) => {
    // 10,000 posts, a tenth of them featured, with views in no order of their seq.
    sql.exec(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
       INSERT INTO items (id, collection_id, slug, status, data, search_text, published_at, created_at, updated_at)
       SELECT 'it_bulk' || i, ?, 'post-' || i, 'published',
         json_object('title', 'Post ' || i, 'views', (i * 7919) % 10007, 'featured', json(CASE WHEN i % 10 = 3 THEN 'true' ELSE 'false' END)),
         'post ' || i, '2026-01-01', '2026-01-01', '2026-01-01' FROM n`,
      posts.id,
    );
    const q = buildListQuery(new URLSearchParams({ "filter[featured]": "true", sort: "-views" }), posts, readCollections(sql), (f) =>
      searchMatch(sql, f),
    );
    const whole = (orderBy: string) => {
      const cursor = sql.exec<{ seq: number }>(`SELECT seq FROM items WHERE ${q.where} ORDER BY ${orderBy}`, ...q.args);
      return { seqs: cursor.toArray().map((r) => r.seq), rowsRead: cursor.rowsRead };
    };
    const byIndex = whole(q.wholeOrderBy);
    const walked = whole(q.orderBy);
    expect(byIndex.seqs).toHaveLength(1000);
    expect(byIndex.seqs).toEqual(walked.seqs);
    // The filter's 1,000 index entries and their rows, against every item of the collection.
    expect(byIndex.rowsRead).toBeLessThanOrEqual(2_100);
    expect(walked.rowsRead).toBeGreaterThanOrEqual(10_000);
    // A list without a filter is its sort key's index, end to end: the same order is kept.
    const plain = buildListQuery(new URLSearchParams({ sort: "-views" }), posts, readCollections(sql), (f) => searchMatch(sql, f));
    expect(plain.wholeOrderBy).toBe(plain.orderBy);
  });
});

it("pages the dashboard's every-status list by an indexed key from the indexes, in the order of a full sort", async () => {
  await inPostsSite((sql, posts) => {
    // 10,000 posts, a third of them drafts, with repeated view counts (ties broken by seq).
    sql.exec(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
       INSERT INTO items (id, collection_id, slug, status, data, search_text, published_at, created_at, updated_at)
       SELECT 'it_bulk' || i, ?, 'post-' || i, CASE WHEN i % 3 = 0 THEN 'draft' ELSE 'published' END,
         json_object('title', 'Post ' || i, 'views', (i * 7919) % 997), 'post ' || i, '2026-01-01', '2026-01-01',
         '2026-01-' || printf('%02d', 1 + i % 28) FROM n`,
      posts.id,
    );
    for (const sort of ["views", "-views", "-updatedAt", "slug"]) {
      for (const page of [1, 7, 400]) {
        const counting = countingSql(sql);
        const q = dashboardListQuery(new URL(`https://dashboard.test/?sort=${sort}`), page, 25);
        const listed = listDashboardItems(counting.sql, posts, readCollections(sql), q);
        const desc = sort.startsWith("-");
        const key = { views: "json_extract(data, '$.views')", updatedAt: "updated_at", slug: "slug" }[sort.replace("-", "")]!;
        const dir = desc ? "DESC" : "ASC";
        const expected = sql
          .exec<{ slug: string }>(
            `SELECT slug FROM items WHERE collection_id = ? ORDER BY ${key} ${dir}, seq ${dir} LIMIT 25 OFFSET ?`,
            posts.id,
            (page - 1) * 25,
          )
          .toArray()
          .map((r) => r.slug);
        expect(
          listed.rows.map((r) => r.slug),
          `${sort} page ${page}`,
        ).toEqual(expected);
        expect(listed.total).toBe(10_000);
        // The page's rows whole, and each status's prefix from its index: never the collection.
        if (page === 1) expect(counting.rowsRead(), sort).toBeLessThan(200);
      }
    }
  });
});

it("picks a range filter's page in the default order from an index alone, then reads only the page's rows", async () => {
  await inPostsSite((sql, posts) => {
    // 20,000 posts whose views follow their seq and whose publishing dates do not.
    sql.exec(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
       INSERT INTO items (id, collection_id, slug, status, data, search_text, published_at, created_at, updated_at)
       SELECT 'it_bulk' || i, ?, 'post-' || i, 'published', json_object('title', 'Post ' || i, 'views', i), 'post ' || i,
         '2026-01-01T00:00:' || printf('%05d', (i * 7919) % 20011), '2026-01-01', '2026-01-01' FROM n`,
      posts.id,
    );
    const params = new URLSearchParams({ "filter[views][gte]": "9000", "filter[views][lt]": "11000", limit: "24", page: "3" });
    const q = buildListQuery(params, posts, readCollections(sql), (f) => searchMatch(sql, f));
    const statements: string[] = [];
    const recording = {
      exec: (query: string, ...args: SqlStorageValue[]) => (statements.push(query), sql.exec(query, ...args)),
    } as unknown as SqlStorage;
    const page = publishedPage(recording, q.where, q.orderBy, q.args, q.limit, (q.page - 1) * q.limit);
    const expected = sql
      .exec<{ slug: string }>(
        `SELECT slug FROM items WHERE collection_id = ? AND json_extract(data, '$.views') BETWEEN 9000 AND 10999
         ORDER BY published_at DESC, seq DESC LIMIT 24 OFFSET 48`,
        posts.id,
      )
      .toArray()
      .map((r) => r.slug);
    expect(page.map((r) => r.slug)).toEqual(expected);
    const plan = sql
      .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${statements[0]}`, ...q.args, q.limit, (q.page - 1) * q.limit)
      .toArray()
      .map((r) => r.detail);
    // The 2,000 kept items are sorted from the index's entries; their rows are never read.
    expect(plan).toContainEqual(expect.stringContaining("USING COVERING INDEX items_range_field_views"));
    expect(plan).toContainEqual(expect.stringContaining("USING INTEGER PRIMARY KEY (rowid=?)"));
  });
});
