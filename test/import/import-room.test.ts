/**
 * What one site keeps of imports at once: at most 10 imports, and 100 MB of their files together,
 * counted as the rows are staged. Past either, an upload is refused in words before anything is
 * kept, and deleting an import makes room again.
 */
import { runInDurableObject } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { IMPORT_LIMITS } from "../../src/contract/imports";
import { callJson, expectStatus, newSite, ORIGIN, putCollection, type TestSite } from "../helpers";
import { stubOf, upload } from "./helpers";

const MB = 1024 * 1024;

async function notesSite(): Promise<TestSite> {
  const site = await newSite("pro");
  await putCollection(site, "notes", { name: "Notes", fields: [{ key: "title", type: "text", required: true }] });
  return site;
}

/** What the site object holds of imports, whatever their state (uploads under way included). */
const stored = (site: TestSite) =>
  runInDurableObject(stubOf(site), (_i: unknown, state: DurableObjectState) => ({
    imports: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM imports").one().n,
    rows: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM import_rows").one().n,
  }));

/** A file as big as `bytes`, in rows of about 1 KB. */
function csvOf(bytes: number): string {
  const lines = ["Name"];
  for (let i = 0; lines.length * 1024 < bytes; i++) lines.push(`Note ${i} ${"x".repeat(1000)}`);
  return `${lines.join("\n")}\n`;
}

/** An upload whose length is not declared (a stream), so only the staged rows can be counted. */
function streamed(site: TestSite, text: string) {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (let at = 0; at < bytes.byteLength; at += 64 * 1024) c.enqueue(bytes.slice(at, at + 64 * 1024));
      c.close();
    },
  });
  return exports.default.fetch(
    new Request(`${ORIGIN}/sites/${site.id}/collections/notes/imports?name=big.csv`, {
      method: "POST",
      headers: { authorization: `Bearer ${site.adminKey}`, "content-type": "text/csv" },
      body,
    }),
  );
}

describe("import: what a site keeps at once", () => {
  it(`keeps at most ${IMPORT_LIMITS.keptImports} imports; the next upload is refused (409) until one is deleted`, async () => {
    const site = await notesSite();
    const ids: string[] = [];
    for (let i = 0; i < IMPORT_LIMITS.keptImports; i++) {
      const up = await upload(site, "notes", `Name\nNote ${i}\n`, `n${i}.csv`);
      expect(up.status).toBe(201);
      ids.push(up.body.import.id);
    }
    const refused = await upload(site, "notes", "Name\nOne more\n", "more.csv");
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: "conflict",
      details: { limit: "imports", max: IMPORT_LIMITS.keptImports, kept: IMPORT_LIMITS.keptImports },
    });
    expect(refused.body.error?.message).toMatch(/Delete one you no longer need/);
    expect(await stored(site)).toEqual({ imports: IMPORT_LIMITS.keptImports, rows: IMPORT_LIMITS.keptImports });

    await expectStatus(callJson("DELETE", `/sites/${site.id}/imports/${ids[0]}`, { auth: site.adminKey }), 200);
    expect((await upload(site, "notes", "Name\nOne more\n", "more.csv")).status).toBe(201);
  });

  it(`keeps at most ${IMPORT_LIMITS.keptBytes / MB} MB of files: a declared length past it is refused at once, a streamed one as its rows arrive`, async () => {
    const site = await notesSite();
    const kept = IMPORT_LIMITS.keptBytes - 3 * MB;
    const first = await upload(site, "notes", csvOf(2 * MB), "first.csv");
    expect(first.status).toBe(201);
    expect(first.body.import.fileBytes).toBeGreaterThan(MB);
    // Other imports keep all but 3 MB already (as full-size files would, bar the test's memory).
    await runInDurableObject(stubOf(site), (_i: unknown, state: DurableObjectState) => {
      state.storage.sql.exec("UPDATE imports SET file_bytes = ? WHERE id = ?", kept, first.body.import.id);
    });
    const text = csvOf(4 * MB);

    const declared = await upload(site, "notes", text, "second.csv");
    expect(declared.status).toBe(413);
    expect(declared.body.error).toMatchObject({
      code: "payload_too_large",
      details: { limit: "importBytes", maxBytes: IMPORT_LIMITS.keptBytes, keptBytes: kept },
    });
    expect(declared.body.error?.message).toMatch(
      new RegExp(`more than ${IMPORT_LIMITS.keptBytes / MB} MB .*\\(${kept / MB} MB are kept now\\)`),
    );

    const res = await streamed(site, text);
    expect(res.status).toBe(413);
    const body = (await res.json()) as { error: { details: { limit: string } } };
    expect(body.error.details.limit).toBe("importBytes");
    // Nothing of either refused upload is kept.
    expect((await stored(site)).imports).toBe(1);

    await expectStatus(callJson("DELETE", `/sites/${site.id}/imports/${first.body.import.id}`, { auth: site.adminKey }), 200);
    expect((await streamed(site, text)).status).toBe(201);
  });
});
