// A search reads the items its index names, not the collection: on 30,000 items a term few of
// them hold reads a handful of rows, for the page and for its total, with or without statistics
// (ANALYZE) about the tables; and so does the dashboard's items table.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { addItem, newBlog } from "./helpers";
import { buildListQuery } from "../actors/site/reads/list-query";
import { searchMatch } from "../actors/site/storage/search-index";
import { readCollections } from "../actors/site/content/collections";
import { dashboardListQuery, listDashboardItems } from "../actors/site/reads/dashboard-list";
import { countingSql } from "./helpers/sql-plan";

it("reads only the items the index names, for the page and the total", async () => {
  const site = await newBlog("pro");
  await addItem(site, "posts", { slug: "lantern", publish: true, data: { title: "Lantern festival" } });
  await runInDurableObject(env.SITE.get(env.SITE.idFromName(site.id)), (_i: unknown, state: DurableObjectState) => {
    const sql = state.storage.sql;
    const posts = readCollections(sql).find((c) => c.slug === "posts")!;
    // 30,000 more posts, written as the items repository writes them (the triggers index each).
    sql.exec(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
       INSERT INTO items (id, collection_id, slug, status, data, search_text, published_at, created_at, updated_at)
       SELECT 'it_bulk' || i, ?, 'post-' || i, 'published', '{}', 'post ' || i || ' notes', '2026-01-01', '2026-01-01', '2026-01-01' FROM n`,
      posts.id,
    );
    const read = (search: string) => {
      const q = buildListQuery(new URLSearchParams({ search }), posts, readCollections(sql), (f) => searchMatch(sql, f));
      const page = sql.exec(`SELECT seq FROM items WHERE ${q.where} ORDER BY ${q.orderBy} LIMIT 24`, ...q.args);
      const seqs = page.toArray();
      const count = sql.exec(`SELECT count(*) AS n FROM items WHERE ${q.where}`, ...q.args);
      const total = count.one().n;
      return { found: seqs.length, total, rowsRead: page.rowsRead + count.rowsRead };
    };
    for (const stats of ["without statistics", "after ANALYZE"]) {
      if (stats === "after ANALYZE") sql.exec("ANALYZE");
      expect(read("lantern"), stats).toMatchObject({ found: 1, total: 1 });
      expect(read("lantern").rowsRead, stats).toBeLessThan(20);
      expect(read("zzqx"), stats).toMatchObject({ found: 0, total: 0 });
      expect(read("zzqx").rowsRead, stats).toBeLessThan(10);
      // A term every post holds still finds them all, exactly.
      expect(read("notes"), stats).toMatchObject({ found: 24, total: 30_000 });
      // The dashboard's items table (searchIn=indexed), drafts included, through the same index.
      const counting = countingSql(sql);
      const q = dashboardListQuery(new URL("https://dashboard.test/?search=lantern&searchIn=indexed"), 1, 25);
      const listed = listDashboardItems(counting.sql, posts, readCollections(sql), q);
      expect(
        listed.rows.map((r) => r.slug),
        stats,
      ).toEqual(["lantern"]);
      expect(listed.total, stats).toBe(1);
      expect(counting.rowsRead(), stats).toBeLessThan(30);
    }
  });
});
