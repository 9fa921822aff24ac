import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MIGRATION_MARKER } from "../actors/shared/migration-marker";
import { runSiteMigrations, SITE_MIGRATIONS } from "../actors/site/storage/migrations";
import { addItem, callJson, newBlog } from "./helpers";

describe("durability", () => {
  it("keeps sites, collections and items across Durable Object eviction", async () => {
    const site = await newBlog();
    await addItem(site, "posts", {
      slug: "kept",
      data: { title: "Kept", cover: { url: "https://img.test/k.jpg", alt: "k" } },
      publish: true,
    });
    const stub = env.SITE.get(env.SITE.idFromName(site.id));
    await evictDurableObject(stub);
    const r = await callJson<{ item: { data: { title: string; cover: { alt: string } } } }>(
      "GET",
      `/v1/${site.token}/collections/posts/items/kept?after=evict`,
    );
    expect(r.status).toBe(200);
    expect(r.body.item.data).toMatchObject({ title: "Kept", cover: { alt: "k" } });
    expect((await callJson("GET", `/sites/${site.id}`, { auth: site.adminKey })).status).toBe(200);
  });

  it.each(SITE_MIGRATIONS.map((m, i) => [i, m.description] as const))(
    "upgrades a database that stopped after %i migration(s) (%s next), keeping its data",
    async (applied) => {
      const site = await newBlog();
      await addItem(site, "posts", { slug: "old", data: { title: "Old" }, publish: true });
      const stub = env.SITE.get(env.SITE.idFromName(site.id));
      // Rewind the migration marker as if only `applied` migrations had run; the
      // schema steps are idempotent, so the remaining ones replay over live data.
      await runInDurableObject(stub, async (_instance, state) => {
        if (applied === 0) await state.storage.delete(MIGRATION_MARKER);
        else await state.storage.put(MIGRATION_MARKER, SITE_MIGRATIONS[applied - 1]?.idMonotonicInc);
      });
      await evictDurableObject(stub);
      const r = await callJson<{ item: { slug: string } }>("GET", `/v1/${site.token}/collections/posts/items/old?m=${applied}`);
      expect(r.status).toBe(200);
      const marker = await runInDurableObject(stub, (_i, state) => state.storage.get(MIGRATION_MARKER));
      expect(marker).toBe(SITE_MIGRATIONS.at(-1)?.idMonotonicInc);
    },
  );

  it("builds the full schema on an empty database", async () => {
    const stub = env.SITE.get(env.SITE.idFromName("migration-fresh-db"));
    const tables = await runInDurableObject(stub, async (_i, state) => {
      await runSiteMigrations(state.storage);
      return state.storage.sql
        .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .toArray()
        .map((r) => r.name);
    });
    expect(tables).toEqual(expect.arrayContaining(["collections", "items", "media", "site"]));
  });

  /** Every table, index and trigger with the statement SQLite keeps for it (a column added later is in its table's). */
  const schemaOf = (state: DurableObjectState) =>
    state.storage.sql.exec("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").toArray();

  it.each(SITE_MIGRATIONS.slice(0, -1).map((m) => [m.idMonotonicInc] as const))(
    "a database built up to migration %i upgrades to the schema of a new one",
    async (upTo) => {
      const fresh = await runInDurableObject(env.SITE.get(env.SITE.idFromName("migration-fresh-schema")), async (_i, state) => {
        await runSiteMigrations(state.storage);
        return schemaOf(state);
      });
      const stub = env.SITE.get(env.SITE.idFromName(`migration-from-${upTo}`));
      const upgraded = await runInDurableObject(stub, async (_i, state) => {
        await runSiteMigrations(
          state.storage,
          SITE_MIGRATIONS.filter((m) => m.idMonotonicInc <= upTo),
        );
        expect(await state.storage.get(MIGRATION_MARKER)).toBe(upTo);
        await runSiteMigrations(state.storage);
        expect(await state.storage.get(MIGRATION_MARKER)).toBe(SITE_MIGRATIONS.at(-1)?.idMonotonicInc);
        return schemaOf(state);
      });
      expect(upgraded).toEqual(fresh);
    },
  );
});
