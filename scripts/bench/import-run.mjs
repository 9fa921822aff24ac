// One CSV import through the API, timed by pass (upload and parse, dry run, write), as the
// transfer bench and the import profile (`BENCH_ONLY=profile BENCH_PROFILE=import`) both run it.
import { api, must } from "../lib.mjs";

/** `n` Webflow-shaped rows of ~2 KB each (a quoted comma, a rich-text body), published. */
export function benchImportCsv(n) {
  const csv = ["Name,Slug,Body,Draft"];
  for (let i = 0; i < n; i++) csv.push(`"Post ${i}, ""quoted""",post-${i},"<p>${"lorem ipsum ".repeat(165)}${i}</p>",false`);
  return `${csv.join("\r\n")}\r\n`;
}

/**
 * Uploads `file` into `collection` of `site`, accepts the proposed mapping, waits for the dry
 * run, starts the write (calling `onWrite()` just before) and waits for its end. Seconds of each.
 */
export async function timedImport(base, site, collection, file, onWrite = () => undefined) {
  const u0 = performance.now();
  const up = await fetch(`${base}/sites/${site.id}/collections/${collection}/imports?name=bench.csv`, {
    method: "POST",
    headers: { authorization: `Bearer ${site.adminKey}`, "content-type": "text/csv" },
    body: file,
  });
  const uploaded = await up.json();
  if (up.status !== 201) throw new Error(`import upload: ${up.status} ${JSON.stringify(uploaded)}`);
  const id = uploaded.import.id;
  const uploadSecs = (performance.now() - u0) / 1000;
  const state = async () => (await must(api(base, "GET", `/sites/${site.id}/imports/${id}`, site.adminKey), "import")).import;
  const waitFor = async (states) => {
    for (;;) {
      const s = await state();
      if (states.includes(s.state)) return s;
      if (s.state === "failed") throw new Error(`import failed: ${s.failure}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const c0 = performance.now();
  await must(api(base, "PUT", `/sites/${site.id}/imports/${id}/mapping`, site.adminKey, { columns: uploaded.import.mapping }), "mapping");
  await waitFor(["checked"]);
  const checkSecs = (performance.now() - c0) / 1000;
  await onWrite();
  const w0 = performance.now();
  await must(api(base, "POST", `/sites/${site.id}/imports/${id}/start`, site.adminKey), "start");
  const end = await waitFor(["done"]);
  const writeSecs = (performance.now() - w0) / 1000;
  return { id, end, uploadSecs, checkSecs, writeSecs };
}
