import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import webflowCsv from "../fixtures/webflow-blog.csv?raw";
import { addItem, call, callJson, expectStatus, newSite, type TestSite } from "../helpers";
import { putPage } from "../ssr-helpers";
import { get, mediaFile } from "../media/helpers";
import { rowsOf, setMapping, start, stubOf, until, upload } from "./helpers";

/** A site shaped like a Webflow blog: authors, and posts whose fields carry Webflow's display names. */
async function webflowSite(): Promise<TestSite> {
  const site = await newSite();
  await expectStatus(
    callJson("PUT", `/sites/${site.id}/collections/authors`, {
      auth: site.adminKey,
      body: { name: "Authors", fields: [{ key: "name", type: "text", required: true }] },
    }),
    201,
  );
  await addItem(site, "authors", { slug: "ada", data: { name: "Ada" }, publish: true });
  await addItem(site, "authors", { slug: "bob", data: { name: "Bob" }, publish: true });
  await expectStatus(
    callJson("PUT", `/sites/${site.id}/collections/posts`, {
      auth: site.adminKey,
      body: {
        name: "Posts",
        fields: [
          { key: "title", type: "text", required: true },
          { key: "body", type: "richText", name: "Post Body" },
          { key: "summary", type: "text", name: "Post Summary" },
          { key: "cover", type: "image", name: "Main Image" },
          { key: "featured", type: "boolean", name: "Featured" },
          { key: "related", type: "references", collection: "posts", name: "Related Posts" },
          { key: "author", type: "reference", collection: "authors", name: "Author" },
          { key: "readingTime", type: "number", name: "Reading Time" },
          { key: "eventDate", type: "date", name: "Event Date" },
        ],
      },
    }),
    201,
  );
  await addItem(site, "posts", { slug: "existing-post", data: { title: "Existing post" }, publish: true });
  return site;
}

/** The fixture as Excel saves "CSV UTF-8": a BOM and CRLF line ends (inside quoted cells too). */
const asExcel = (text: string) => `\ufeff${text.replace(/\r?\n/g, "\r\n")}`;

/**
 * The fixture with its images on a plain local image host (as a customer's images are on theirs),
 * instead of its placeholder host `images.example`, which resolves nowhere.
 */
async function withLocalImages(text: string): Promise<string> {
  const dir = `/wf-${crypto.randomUUID().slice(0, 8)}`;
  const hello = await putPage(mediaFile("small.jpg"), { path: `${dir}/hello.jpg`, type: "image/jpeg" });
  await putPage(mediaFile("photo.png"), { path: `${dir}/four.jpg`, type: "image/png" });
  return text.replaceAll("https://images.example/", hello.slice(0, hello.length - "hello.jpg".length));
}

describe("import: Webflow's CMS CSV", () => {
  it("proposes a mapping, forecasts every row in a dry run that writes nothing, then imports it", async () => {
    const site = await webflowSite();
    const up = await upload(site, "posts", asExcel(await withLocalImages(webflowCsv)), "Blog Posts.csv");
    expect(up.status).toBe(201);
    const imp = up.body.import;
    expect(imp).toMatchObject({ state: "uploaded", kind: "csv", collection: "posts", delimiter: ",", fileName: "Blog Posts.csv" });
    // The BOM is not part of the first column's name.
    expect(imp.header[0]).toBe("Name");
    expect(imp.progress.rowsTotal).toBe(8);
    const use = Object.fromEntries(imp.mapping.map((m) => [m.column, m.field ?? m.use]));
    expect(use).toMatchObject({
      Name: "title",
      Slug: "slug",
      "Collection ID": "ignore",
      "Item ID": "ignore",
      Archived: "archived",
      Draft: "draft",
      "Published On": "publishedOn",
      "Created On": "ignore",
      "Post Body": "body",
      "Main Image": "cover",
      "Featured?": "featured",
      "Related Posts": "related",
      "Reading Time": "readingTime",
      "Event Date": "eventDate",
      Mood: "ignore",
    });
    // The embedded newline of a quoted cell stays in its cell.
    expect(imp.sample[0]![10]).toBe('<p>Line one, with a comma</p>\r\n<p>Line two "quoted"</p>');

    // The unknown column becomes a new text field.
    const mapping = imp.mapping.map((m) =>
      m.column === "Mood" ? { column: "Mood", use: "new" as const, create: { key: "mood", type: "text" as const, name: "Mood" } } : m,
    );
    await setMapping(site, imp.id, mapping);
    const checked = await until(site, imp.id, ["checked"]);
    expect(checked.planned).toEqual({ create: 3, update: 1, skip: 1, error: 3 });
    // The dry run wrote nothing: no item, no field.
    const before = await callJson<{ items: unknown[] }>("GET", `/sites/${site.id}/collections/posts/items`, { auth: site.adminKey });
    expect(before.body.items).toHaveLength(1);
    const errors = await rowsOf(site, imp.id, "error");
    expect(errors.map((r) => [r.row, r.slug, r.problems.map((p) => [p.column, p.value])])).toEqual([
      [3, "bad-date", [["Event Date", "31/31/2025"]]],
      [6, "points-at-bad", [["Related Posts", "bad-date"]]],
      [7, "unknown-author", [["Author", "nobody"]]],
    ]);
    expect(errors[0]!.problems[0]!.reason).toMatch(/not a date/);
    expect(errors[2]!.problems[0]!.reason).toBe('no item "nobody" in collection "authors"');
    // Rows are numbered from the first data row; lines count the file's lines (row 2 follows a two-line cell).
    expect(errors[0]!.line).toBe(5);

    await start(site, imp.id);
    const done = await until(site, imp.id, ["done", "failed"]);
    expect(done.state).toBe("done");
    expect(done.done).toEqual({ created: 3, updated: 1, skipped: 1, failed: 3 });

    const ids = Object.fromEntries(
      (
        await callJson<{ items: { id: string; slug: string }[] }>("GET", `/sites/${site.id}/collections/posts/items?limit=100`, {
          auth: site.adminKey,
        })
      ).body.items.map((i) => [i.slug, i.id]),
    );
    const hello = await callJson<{ item: Record<string, unknown> & { data: Record<string, unknown> } }>(
      "GET",
      `/sites/${site.id}/collections/posts/items/${ids["hello-world"]}`,
      { auth: site.adminKey },
    );
    expect(hello.body.item).toMatchObject({ status: "published", publishedAt: "2025-08-12T07:53:00.000Z" });
    expect(hello.body.item.data).toMatchObject({
      title: 'Hello, "world"',
      summary: "The first post",
      featured: true,
      readingTime: 5,
      eventDate: "2025-08-12T07:53:00.000Z",
      mood: "happy",
      related: [ids["second-post"], ids["fourth-post"]],
    });
    expect(String(hello.body.item.data.body)).toContain("Line two");
    const second = await callJson<{ item: { status: string; data: Record<string, unknown> } }>(
      "GET",
      `/sites/${site.id}/collections/posts/items/${ids["second-post"]}`,
      { auth: site.adminKey },
    );
    expect(second.body.item).toMatchObject({ status: "draft", data: { related: [ids["hello-world"]] } });
    // The public API answers the imported post with its image copied into the library, served by us.
    const pub = await callJson<{ item: { data: { cover: { url: string }; related: { slug: string }[] } } }>(
      "GET",
      `/v1/${site.token}/collections/posts/items/hello-world`,
    );
    expect(pub.status).toBe(200);
    expect(pub.body.item.data.cover.url).toMatch(new RegExp(`/m/${site.id}/[^/]+/[0-9a-f]{12}/hello\\.jpg$`));
    expect(new Uint8Array(await (await get(pub.body.item.data.cover.url)).arrayBuffer())).toEqual(mediaFile("small.jpg"));
    // A multi-image cell: its first image (a PNG named .jpg: the type comes from the bytes).
    const four = await callJson<{ item: { publishedAt: string; data: { cover: { url: string } } } }>(
      "GET",
      `/v1/${site.token}/collections/posts/items/fourth-post`,
    );
    expect(four.body.item.publishedAt).toBe("2025-08-13T08:00:00.000Z");
    expect(four.body.item.data.cover.url).toMatch(new RegExp(`/m/${site.id}/[^/]+/[0-9a-f]{12}/four\\.png$`));
    expect(ids["archived-post"]).toBeUndefined();
    expect(ids["bad-date"]).toBeUndefined();
    const existing = await callJson<{ item: { data: { title: string } } }>(
      "GET",
      `/v1/${site.token}/collections/posts/items/existing-post`,
    );
    expect(existing.body.item.data.title).toBe("Existing post (new title)");

    // Revisions name the import; the webhook outbox has its import.finished event; the audit log its steps.
    await runInDurableObject(stubOf(site), (_i, state) => {
      const sql = state.storage.sql;
      const notes = sql.exec<{ note: string }>("SELECT note FROM item_revisions WHERE item_id = ?", ids["hello-world"]!).toArray();
      expect(notes.length).toBeGreaterThan(0);
      expect(notes.every((n) => n.note === `import ${imp.id}`)).toBe(true);
      const events = sql.exec<{ payload: string }>("SELECT payload FROM webhook_events WHERE type = 'import.finished'").toArray();
      expect(events).toHaveLength(1);
      expect(JSON.parse(events[0]!.payload).data.import).toMatchObject({ id: imp.id, state: "done", created: 3, updated: 1, failed: 3 });
      const ops = sql
        .exec<{ operation: string }>("SELECT operation FROM audit WHERE target = ? ORDER BY seq", `import ${imp.id}`)
        .toArray();
      expect(ops.map((o) => o.operation)).toEqual(["createImport", "setImportMapping", "startImport"]);
    });

    // The report: one line per problem, every row's outcome, formula-looking cells neutralised.
    const report = await call("GET", `/sites/${site.id}/imports/${imp.id}/report.csv`, { auth: site.adminKey });
    expect(report.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = parse(await report.text(), { bom: true, columns: true }) as Record<string, string>[];
    expect(lines.map((l) => [l.row, l.outcome])).toEqual([
      ["1", "created"],
      ["2", "created"],
      ["3", "failed"],
      ["4", "created"],
      ["5", "skipped"],
      ["6", "failed"],
      ["7", "failed"],
      ["8", "updated"],
    ]);
    expect(lines[2]).toMatchObject({ slug: "bad-date", column: "Event Date", value: "31/31/2025" });
  });

  it("reads `;`-separated files and refuses what it cannot read, in words", async () => {
    const site = await webflowSite();
    const semi = await upload(site, "posts", "Name;Slug;Reading Time\nOne;one;3\n", "semi.csv");
    expect(semi.status).toBe(201);
    expect(semi.body.import.delimiter).toBe(";");
    expect(semi.body.import.sample).toEqual([["One", "one", "3"]]);

    const quote = await upload(site, "posts", 'Name,Slug\n"never closed,x\n', "bad.csv");
    expect(quote.status).toBe(400);
    expect(quote.body.error!.message).toMatch(/could not be read as CSV/);
    const latin1 = await call("POST", `/sites/${site.id}/collections/posts/imports?name=l.csv`, {
      auth: site.adminKey,
      headers: { "content-type": "text/csv" },
      body: "Name,Slug\n",
    });
    expect(latin1.status).toBe(400); // a header with no rows
    const none = await upload(site, "nope", "Name\nx\n", "x.csv");
    expect(none.status).toBe(404);
    const bad = await callJson("PUT", `/sites/${site.id}/imports/${semi.body.import.id}/mapping`, {
      auth: site.adminKey,
      body: { columns: [{ column: "Name", use: "field", field: "nope" }] },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('no field \\"nope\\"');
    // Nothing half-uploaded is left behind.
    await runInDurableObject(stubOf(site), (_i, state) => {
      const n = state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM imports").one().n;
      expect(n).toBe(1);
    });
  });
});
