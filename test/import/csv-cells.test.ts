/**
 * Cells of the service's own CSV read back whole: a collection exported and imported into an empty
 * site gives back every value as it went in, and an import's report keeps each cell in its line.
 */
import { describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { addItem, call, callJson, expectStatus, newSite, putCollection, type TestSite } from "../helpers";
import { csvOf, importFile } from "./helpers";

/**
 * Records as a spreadsheet or Python's csv module reads them: any CR, LF or CRLF outside quotes
 * ends a record (csv-parse alone would take the first line's CRLF as the only record end).
 */
const strictRows = (text: string) =>
  parse(text, { bom: true, columns: true, record_delimiter: ["\r\n", "\n", "\r"] }) as Record<string, string>[];

/** Text values as people paste them: line breaks of every system, quotes, commas, tabs, emoji. */
const VALUES: Record<string, string> = {
  lf: "First line\nsecond line",
  cr: "First line\rsecond line",
  crlf: "First line\r\nsecond line",
  "ends-lf": "ends with a line feed\n",
  "starts-lf": "\nstarts with a line feed",
  quotes: 'She said "hi", then ""bye""',
  commas: "a, b,, c,",
  tabs: "column\tafter tab\t",
  emoji: "emoji 😀, a flag 🇫🇷 and a clef 𝄞",
  mixed: '"quoted",\r\nthen\ttabs\rand 👍\n',
};

/** Cells a spreadsheet would run as formulas, and values that only look close to one. */
const FORMULAS: Record<string, string> = {
  equals: "=1+1",
  minus: "-5",
  plus: "+x",
  at: "@a",
  tab: "\tafter a tab",
  cr: "\rafter a CR",
  hyperlink: '=HYPERLINK("https://evil.example","click")',
  "quoted-formula": "'=1+1",
  "two-quotes": "''-5",
  "plain-quote": "'plain",
  "only-quote": "'",
  "quote-then-space": "' =1",
};

async function notesSite(): Promise<TestSite> {
  const site = await newSite("pro");
  await putCollection(site, "notes", {
    name: "Notes",
    fields: [
      { key: "title", type: "text", required: true },
      { key: "body", type: "text" },
      { key: "count", type: "number" },
      // A column name a spreadsheet would run too.
      { key: "total", name: "=Total", type: "text" },
    ],
  });
  return site;
}

type Values = { title: string; body?: string; count?: number; total?: string };

async function valuesOf(site: TestSite): Promise<Record<string, Values>> {
  const r = await expectStatus(
    callJson<{ items: { slug: string; data: Values }[] }>("GET", `/sites/${site.id}/collections/notes/items?limit=100`, {
      auth: site.adminKey,
    }),
    200,
  );
  return Object.fromEntries(r.items.map((i) => [i.slug, i.data]));
}

describe("CSV cells", () => {
  it("export → import gives back values holding LF, CR, CRLF, quotes, commas, tabs and emoji", async () => {
    const from = await notesSite();
    for (const [slug, value] of Object.entries(VALUES)) {
      await addItem(from, "notes", { slug, data: { title: `${slug}:\n${value}`, body: value } });
    }
    const csv = await csvOf(from, "notes");
    // One record per item, whatever its cells hold.
    const rows = strictRows(csv);
    expect(rows.map((r) => r.Slug).sort()).toEqual(Object.keys(VALUES).sort());
    for (const r of rows) expect(r.body, r.Slug).toBe(VALUES[r.Slug!]);

    const to = await notesSite();
    const n = Object.keys(VALUES).length;
    expect((await importFile(to, "notes", csv)).done).toEqual({ created: n, updated: 0, skipped: 0, failed: 0 });
    const expected = Object.fromEntries(
      Object.entries(VALUES).map(([slug, value]) => [slug, { title: `${slug}:\n${value}`, body: value }]),
    );
    expect(await valuesOf(to)).toEqual(expected);
  });

  it("writes formula-looking cells behind a ' that the import takes away: =1+1 comes back as =1+1", async () => {
    const from = await notesSite();
    for (const [slug, value] of Object.entries(FORMULAS)) {
      await addItem(from, "notes", { slug, data: { title: value, body: value, total: value } });
    }
    await addItem(from, "notes", { slug: "negative", data: { title: "=SUM(A1:A9)", count: -5 } });
    const csv = await csvOf(from, "notes");
    const rows = strictRows(csv);
    // No cell of the file, its header included, starts as a formula.
    const cells = [...Object.keys(rows[0]!), ...rows.flatMap((r) => Object.values(r))];
    expect(cells.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
    expect(Object.keys(rows[0]!)).toContain("'=Total");
    const bySlug = Object.fromEntries(rows.map((r) => [r.Slug!, r]));
    expect(bySlug.equals).toMatchObject({ Name: "'=1+1", body: "'=1+1", "'=Total": "'=1+1" });
    expect(bySlug.minus!.body).toBe("'-5");
    expect(bySlug["quoted-formula"]!.body).toBe("''=1+1");
    expect(bySlug["plain-quote"]!.body).toBe("'plain");
    expect(bySlug.negative).toMatchObject({ Name: "'=SUM(A1:A9)", count: "'-5" });

    const to = await notesSite();
    const n = Object.keys(FORMULAS).length + 1;
    expect((await importFile(to, "notes", csv)).done).toEqual({ created: n, updated: 0, skipped: 0, failed: 0 });
    const expected: Record<string, Values> = Object.fromEntries(
      Object.entries(FORMULAS).map(([slug, value]) => [slug, { title: value, body: value, total: value }]),
    );
    expected.negative = { title: "=SUM(A1:A9)", count: -5 };
    expect(await valuesOf(to)).toEqual(expected);
    // Exported again, the file is the same but for ids and times.
    const again = strictRows(await csvOf(to, "notes"));
    const blank = (list: Record<string, string>[]): Record<string, string>[] =>
      list
        .map((r): Record<string, string> => ({ ...r, "Collection ID": "", "Item ID": "", "Created On": "", "Updated On": "" }))
        .sort((a, b) => (a.Slug ?? "").localeCompare(b.Slug ?? ""));
    expect(blank(again)).toEqual(blank(rows));
  });

  it("keeps a report cell holding a line feed in its own line", async () => {
    const site = await notesSite();
    const imp = await importFile(site, "notes", 'Name,Slug,count\r\nA,a,"1\n2"\r\nB,b,3\r\n');
    expect(imp.done).toEqual({ created: 1, updated: 0, skipped: 0, failed: 1 });
    const report = await call("GET", `/sites/${site.id}/imports/${imp.id}/report.csv`, { auth: site.adminKey });
    const lines = strictRows(await report.text());
    expect(lines.map((l) => [l.row, l.outcome])).toEqual([
      ["1", "failed"],
      ["2", "created"],
    ]);
    expect(lines[0]).toMatchObject({ slug: "a", column: "count", value: "1\n2" });
  });

  it("reads a gallery cell's URLs in order, separated by spaces, new lines or |", async () => {
    const site = await newSite("pro");
    await putCollection(site, "products", {
      name: "Products",
      fields: [
        { key: "name", type: "text", required: true },
        { key: "photos", type: "gallery" },
      ],
    });
    const [a, b, c] = ["https://img.test/a.jpg", "https://img.test/b.jpg?w=2&h=1", "https://img.test/c.jpg"];
    const imp = await importFile(
      site,
      "products",
      `Name,Slug,photos\r\nBars,bars,${a} | ${b}|${c}\r\nLines,lines,"${c}\n${a}  ${b}"\r\nWebflow,webflow,${b}; ${c}\r\nNone,none,\r\n`,
    );
    expect(imp.done).toMatchObject({ created: 4, failed: 0 });
    const listed = await callJson<{ items: { slug: string; data: { photos?: string[] } }[] }>(
      "GET",
      `/sites/${site.id}/collections/products/items?sort=slug`,
      { auth: site.adminKey },
    );
    const media = await callJson<{ media: { mediaId: string; url: string }[] }>("GET", `/sites/${site.id}/media?limit=100`, {
      auth: site.adminKey,
    });
    const urlOf = new Map(media.body.media.map((m) => [m.mediaId, m.url]));
    const urls = Object.fromEntries(listed.body.items.map((i) => [i.slug, (i.data.photos ?? []).map((id) => urlOf.get(id))]));
    expect(urls).toEqual({ bars: [a, b, c], lines: [c, a, b], webflow: [b, c], none: [] });
  });
});
