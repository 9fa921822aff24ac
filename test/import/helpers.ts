/** Helpers of the import tests: upload a file, confirm a mapping, run the site's alarm until the import reaches a state. */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { ColumnMapping, ImportRowView, ImportView } from "../../src/contract/imports";
import { call, callJson, expectStatus, type TestSite } from "../helpers";

export const stubOf = (site: TestSite) => env.SITE.get(env.SITE.idFromName(site.id));

/** Uploads a file as the dashboard does (raw body); `collection` null: a site export. */
export async function upload(
  site: TestSite,
  collection: string | null,
  body: string,
  name: string,
  type = "text/csv",
): Promise<{ status: number; body: { import: ImportView; error?: { code: string; message: string; details?: unknown } } }> {
  const path = collection === null ? `/sites/${site.id}/imports` : `/sites/${site.id}/collections/${collection}/imports`;
  return callJson("POST", `${path}?name=${encodeURIComponent(name)}`, { auth: site.adminKey, body, headers: { "content-type": type } });
}

export async function getImport(site: TestSite, id: string): Promise<ImportView> {
  return (await expectStatus(callJson<{ import: ImportView }>("GET", `/sites/${site.id}/imports/${id}`, { auth: site.adminKey }), 200))
    .import;
}

/** Runs the alarm (as its own schedule would) until the import is in one of `states`. */
export async function until(
  site: TestSite,
  id: string,
  states: readonly ImportView["state"][],
  between?: () => Promise<void>,
): Promise<ImportView> {
  for (let i = 0; i < 5000; i++) {
    const imp = await getImport(site, id);
    if (states.includes(imp.state)) return imp;
    if (between) await between();
    if (!(await runDurableObjectAlarm(stubOf(site)))) await scheduler.wait(10);
  }
  throw new Error(`import ${id} never reached ${states.join("/")}`);
}

export async function setMapping(site: TestSite, id: string, columns: ColumnMapping[]): Promise<ImportView> {
  const body = await expectStatus(
    callJson<{ import: ImportView }>("PUT", `/sites/${site.id}/imports/${id}/mapping`, { auth: site.adminKey, body: { columns } }),
    202,
  );
  return body.import;
}

export async function start(site: TestSite, id: string): Promise<ImportView> {
  return (
    await expectStatus(callJson<{ import: ImportView }>("POST", `/sites/${site.id}/imports/${id}/start`, { auth: site.adminKey }), 202)
  ).import;
}

export async function rowsOf(site: TestSite, id: string, outcome?: string): Promise<ImportRowView[]> {
  const q = outcome ? `&outcome=${outcome}` : "";
  const body = await expectStatus(
    callJson<{ rows: ImportRowView[] }>("GET", `/sites/${site.id}/imports/${id}/rows?limit=200${q}`, { auth: site.adminKey }),
    200,
  );
  return body.rows;
}

/** Upload, accept the proposed mapping (with `change` applied), dry run, `beforeStart`, start, and run to the end. */
export async function importFile(
  site: TestSite,
  collection: string,
  text: string,
  change: (m: ColumnMapping[]) => ColumnMapping[] = (m) => m,
  beforeStart: () => Promise<void> = async () => undefined,
): Promise<ImportView> {
  const up = await upload(site, collection, text, `${collection}.csv`);
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${JSON.stringify(up.body)}`);
  const id = up.body.import.id;
  await setMapping(site, id, change(up.body.import.mapping));
  await until(site, id, ["checked"]);
  await beforeStart();
  await start(site, id);
  return until(site, id, ["done", "failed"]);
}

export async function csvOf(site: TestSite, collection: string): Promise<string> {
  const res = await call("GET", `/sites/${site.id}/collections/${collection}/export.csv`, { auth: site.adminKey });
  if (res.status !== 200) throw new Error(`export: ${res.status}`);
  return new TextDecoder().decode(await res.arrayBuffer());
}

/**
 * Imports `text` as importFile does, but the site's database refuses to insert the item `slug`
 * once the dry run is over (a trigger of the test's own): something a dry run cannot foresee.
 */
export async function importRefusing(site: TestSite, collection: string, text: string, slug: string): Promise<ImportView> {
  const name = `test_refuse_${slug.replace(/[^a-z0-9]/g, "_")}`;
  const refuse = `CREATE TRIGGER ${name} BEFORE INSERT ON items WHEN new.slug = '${slug}' BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`;
  try {
    return await importFile(
      site,
      collection,
      text,
      (m) => m,
      () => runInDurableObject(stubOf(site), (_i, state) => void state.storage.sql.exec(refuse)),
    );
  } finally {
    await runInDurableObject(stubOf(site), (_i, state) => void state.storage.sql.exec(`DROP TRIGGER IF EXISTS ${name}`));
  }
}
