import { describe, expect, inject, it } from "vitest";
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { call, callJson, expectStatus, OPERATOR, ORIGIN } from "../helpers";
import { signUp } from "../helpers/accounts";
import { uniqueEmail } from "../helpers/mail";
import { workspaceWithTwoSites } from "./workspace-fixture";
import { capturedBlog } from "../ssr-helpers";
import type { AuditEntry as Entry } from "../../actors/workspace/audit";

const setup = () => workspaceWithTwoSites("Audit", "site");

const audit = (workspaceId: string, query = "") =>
  expectStatus(
    callJson<{ entries: Entry[]; next: string | null }>("GET", `/workspaces/${workspaceId}/audit${query}`, { auth: OPERATOR }),
    200,
  );

describe("the audit log", () => {
  it("records each change once, with who, what, the target and where from; a failed write records nothing", async () => {
    const { workspaceId, a } = await setup();
    const key = (
      await expectStatus(
        callJson<{ apiKey: { id: string; key: string } }>("POST", `/workspaces/${workspaceId}/api-keys`, {
          auth: OPERATOR,
          body: { name: "ci bot", scope: "full" },
        }),
        201,
      )
    ).apiKey;
    const before = (await audit(workspaceId)).entries.length;
    await expectStatus(
      callJson("POST", `/sites/${a.id}/collections/posts/items`, {
        auth: key.key,
        headers: { "cf-connecting-ip": "203.0.113.9" },
        body: { slug: "hello", data: { title: "Hi" } },
      }),
      201,
    );
    // The same slug again: 409, and no row.
    const dup = await callJson("POST", `/sites/${a.id}/collections/posts/items`, {
      auth: key.key,
      body: { slug: "hello", data: { title: "Again" } },
    });
    expect(dup.status).toBe(409);
    const { entries } = await audit(workspaceId);
    expect(entries.length).toBe(before + 1);
    expect(entries[0]).toMatchObject({
      actor: { kind: "apiKey", id: key.id, label: "ci bot" },
      operation: "createItem",
      kind: "Items",
      target: "posts/hello",
      siteId: a.id,
      ip: "203.0.113.9",
    });
    // The workspace's own rows are there too: the key's creation by the operator.
    expect(entries.some((e) => e.operation === "createApiKey" && e.actor.kind === "operator" && e.siteId === null)).toBe(true);
    // The item records its author.
    const stored = await runInDurableObject(env.SITE.get(env.SITE.idFromName(a.id)), (_i: unknown, state: DurableObjectState) =>
      state.storage.sql.exec<{ created_by: string }>("SELECT created_by FROM items WHERE slug = 'hello'").one(),
    );
    expect(stored.created_by).toBe(key.id);
  });

  it("names what changed in words: the captured page, a domain, a webhook endpoint by its URL", async () => {
    const { site } = await capturedBlog();
    const url = `${inject("webhookReceiver")}/hooks/audit-${site.id}`;
    await expectStatus(
      callJson("POST", `/sites/${site.id}/webhooks`, { auth: site.adminKey, body: { url, events: ["item.published"] } }),
      201,
    );
    await expectStatus(
      callJson("POST", `/sites/${site.id}/ssr/custom-hostname`, { auth: site.adminKey, body: { hostname: "news.example.com" } }),
      201,
    );
    const { entries } = await audit(site.workspaceId, "?limit=50");
    const target = (operation: string) => entries.find((e) => e.operation === operation)?.target;
    expect(target("putCapture")).toBe("captured page");
    expect(target("putCustomHostname")).toBe("domain news.example.com");
    expect(target("createWebhookEndpoint")).toBe(`webhook ${url}`);
  });

  it("writes the row in the change's transaction: a write that throws after its change leaves neither", async () => {
    const { a } = await setup();
    const stub = env.SITE.get(env.SITE.idFromName(a.id));
    const counts = () =>
      runInDurableObject(stub, (_i: unknown, state: DurableObjectState) => ({
        audit: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM audit").one().n,
        collections: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM collections").one().n,
      }));
    const start = await counts();
    // Deleting a collection that does not exist throws inside the transaction.
    expect((await callJson("DELETE", `/sites/${a.id}/collections/nope`, { auth: a.adminKey })).status).toBe(404);
    expect(await counts()).toEqual(start);
    await expectStatus(callJson("DELETE", `/sites/${a.id}/collections/posts`, { auth: a.adminKey }), 200);
    expect(await counts()).toEqual({ audit: start.audit + 1, collections: start.collections - 1 });
  });

  it("filters by person, site and kind, and pages through both sites with a cursor", async () => {
    const { workspaceId, a, b } = await setup();
    for (let i = 0; i < 4; i++)
      for (const s of [a, b])
        await expectStatus(
          callJson("POST", `/sites/${s.id}/collections/posts/items`, { auth: s.adminKey, body: { slug: `p${i}`, data: { title: "t" } } }),
          201,
        );
    const all = await audit(workspaceId, "?limit=200");
    const seen: Entry[] = [];
    let next: string | null = "";
    while (next !== null) {
      const page: { entries: Entry[]; next: string | null } = await audit(workspaceId, `?limit=3${next ? `&before=${next}` : ""}`);
      expect(page.entries.length).toBeLessThanOrEqual(3);
      seen.push(...page.entries);
      next = page.next;
    }
    expect(seen.map((e) => e.id)).toEqual(all.entries.map((e) => e.id));
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    for (let i = 1; i < seen.length; i++) expect(seen[i - 1]!.at >= seen[i]!.at).toBe(true);
    const onlyB = await audit(workspaceId, `?siteId=${b.id}&kind=Items`);
    expect(onlyB.entries.length).toBe(4);
    expect(onlyB.entries.every((e) => e.siteId === b.id && e.kind === "Items")).toBe(true);
    const byOperator = await audit(workspaceId, "?actor=operator");
    expect(byOperator.entries.length).toBeGreaterThan(0);
    expect(byOperator.entries.every((e) => e.actor.label === "operator")).toBe(true);
    expect((await callJson("GET", `/workspaces/${workspaceId}/audit?before=garbage`, { auth: OPERATOR })).status).toBe(400);
  });

  it("exports CSV with a header row, and a cell that would be a formula is escaped", async () => {
    const { workspaceId, a } = await setup();
    const key = (
      await expectStatus(
        callJson<{ apiKey: { key: string } }>("POST", `/workspaces/${workspaceId}/api-keys`, {
          auth: OPERATOR,
          body: { name: '=HYPERLINK("x")', scope: "full" },
        }),
        201,
      )
    ).apiKey;
    await expectStatus(
      callJson("POST", `/sites/${a.id}/collections/posts/items`, { auth: key.key, body: { slug: "csv", data: { title: "t" } } }),
      201,
    );
    const res = await call("GET", `/workspaces/${workspaceId}/audit.csv`, { auth: OPERATOR });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toMatch(/attachment/);
    const text = await res.text();
    const lines = text.split("\r\n");
    expect(lines[0]).toBe("time,actor,actor type,operation,kind,target,site,ip,country,actor name");
    const row = lines.find((l) => l.includes("posts/csv"))!;
    expect(row).toContain(`"'=HYPERLINK(""x"")"`);
    expect(row).not.toMatch(/,=HYPERLINK/);
    expect((await callJson("GET", `/workspaces/${workspaceId}/audit.csv?from=2020-01-01`, { auth: OPERATOR })).status).toBe(400);
  });

  it("names a person by the name given at sign-up beside the email, in entries, history and CSV; says what an edit did", async () => {
    const email = uniqueEmail("named");
    // signUp gives the name "Ada".
    const ada = await signUp(email);
    const as = { headers: { cookie: ada.cookie, origin: ORIGIN } };
    const ws = (await expectStatus(callJson<{ workspace: { id: string } }>("POST", "/workspaces", { ...as, body: { name: "Named" } }), 201))
      .workspace;
    const site = (
      await expectStatus(
        callJson<{ site: { id: string; adminKey: string } }>("POST", "/sites", { ...as, body: { name: "Blog", workspaceId: ws.id } }),
        201,
      )
    ).site;
    const items = `/sites/${site.id}/collections/posts/items`;
    await expectStatus(
      callJson("PUT", `/sites/${site.id}/collections/posts`, { ...as, body: { fields: [{ key: "title", type: "text" }] } }),
      201,
    );
    const { item } = await expectStatus(
      callJson<{ item: { id: string } }>("POST", items, { ...as, body: { slug: "live", data: { title: "Live" }, publish: true } }),
      201,
    );
    await expectStatus(callJson("PATCH", `${items}/${item.id}`, { ...as, body: { data: { title: "Live, edited" } } }), 200);
    const draft = (
      await expectStatus(callJson<{ item: { id: string } }>("POST", items, { ...as, body: { slug: "d", data: { title: "D" } } }), 201)
    ).item;
    await expectStatus(callJson("PATCH", `${items}/${draft.id}`, { ...as, body: { data: { title: "D2" } } }), 200);
    // Saved again as it is: nothing changed, and the row says so.
    await expectStatus(callJson("PATCH", `${items}/${draft.id}`, { ...as, body: { data: { title: "D2" } } }), 200);
    // The admin key has no name: it stays "site admin key".
    await expectStatus(callJson("POST", `${items}/${draft.id}/publish`, { auth: site.adminKey }), 200);

    const { entries } = await expectStatus(
      callJson<{ entries: Entry[] }>("GET", `/workspaces/${ws.id}/audit?siteId=${site.id}&kind=Items`, as),
      200,
    );
    const person = { kind: "account", id: ada.account.id, label: email, name: "Ada" };
    const of = (operation: string, id: string) =>
      entries.filter((e) => e.operation === operation && (e.details as { id?: string }).id === id);
    expect(of("createItem", item.id)).toMatchObject([{ actor: person, details: { id: item.id, status: "published" } }]);
    expect(of("updateItem", item.id)).toMatchObject([{ actor: person, details: { id: item.id, status: "published" } }]);
    expect(of("updateItem", draft.id).map((e) => e.details)).toEqual([
      { id: draft.id, status: "draft", unchanged: true },
      { id: draft.id, status: "draft" },
    ]);
    expect(of("publishItem", draft.id)).toMatchObject([{ actor: { kind: "siteKey", label: "site admin key", name: null } }]);
    // The workspace's own rows carry the name too (the site she created).
    const all = await expectStatus(callJson<{ entries: Entry[] }>("GET", `/workspaces/${ws.id}/audit?actor=Ada`, as), 200);
    expect(all.entries.some((e) => e.operation === "createSite" && e.actor.name === "Ada")).toBe(true);
    expect(all.entries.every((e) => e.actor.id === ada.account.id)).toBe(true);

    // Members list her by name (the Owner's name is kept when she creates the workspace).
    const members = await expectStatus(
      callJson<{ members: { email: string; name: string }[] }>("GET", `/workspaces/${ws.id}/members`, as),
      200,
    );
    expect(members.members.map((m) => [m.email, m.name])).toEqual([[email, "Ada"]]);
    // A row written before names were kept reads as the member's name today.
    await runInDurableObject(env.SITE.get(env.SITE.idFromName(site.id)), (_i: unknown, state: DurableObjectState) => {
      // One reading of the clock: it may move between two statements, and the order is by time.
      const now = Date.now();
      state.storage.sql.exec(
        "INSERT INTO audit (at, actor_kind, actor_id, actor_label, operation, kind, target) VALUES (?, 'account', ?, ?, 'deleteItem', 'Items', 'posts/old')",
        now,
        ada.account.id,
        email,
      );
      state.storage.sql.exec(
        "INSERT INTO audit (at, actor_kind, actor_id, actor_label, operation, kind, target) VALUES (?, 'account', 'ac_gone', 'gone@example.com', 'deleteItem', 'Items', 'posts/older')",
        now - 1,
      );
    });
    const latest = await expectStatus(
      callJson<{ entries: Entry[] }>("GET", `/workspaces/${ws.id}/audit?siteId=${site.id}&limit=2`, as),
      200,
    );
    expect(latest.entries.map((e) => [e.target, e.actor.name])).toEqual([
      ["posts/old", "Ada"],
      ["posts/older", null],
    ]);

    // The history names her too, with the email still there.
    const history = await expectStatus(
      callJson<{ revisions: { kind: string; actor: unknown }[] }>("GET", `${items}/${item.id}/revisions`, as),
      200,
    );
    expect(history.revisions.map((r) => r.actor)).toEqual([person, person]);

    // CSV: the columns that were there keep their places, the name comes last.
    const csv = await call("GET", `/workspaces/${ws.id}/audit.csv?siteId=${site.id}`, as);
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).split("\r\n");
    expect(lines[0]).toBe("time,actor,actor type,operation,kind,target,site,ip,country,actor name");
    const row = lines.find((l) => l.includes("createItem"))!.split(",");
    expect([row[1], row[2], row[9]]).toEqual([email, "account", "Ada"]);
    expect(lines.find((l) => l.includes("publishItem"))!.split(",")[9]).toBe("");
  });

  it("keeps rows 90 days and more; the daily job prunes only what is older than the retention", async () => {
    const { a } = await setup();
    const stub = env.SITE.get(env.SITE.idFromName(a.id));
    const day = 86_400_000;
    await runInDurableObject(stub, (_i: unknown, state: DurableObjectState) => {
      const sql = state.storage.sql;
      for (const [age, target] of [
        [91, "recent enough"],
        [401, "too old"],
      ] as const)
        sql.exec(
          "INSERT INTO audit (at, actor_kind, actor_label, operation, kind, target) VALUES (?, 'operator', 'operator', 'createItem', 'Items', ?)",
          Date.now() - age * day,
          target,
        );
      // The prune job is due now (it runs daily).
      sql.exec("UPDATE jobs SET run_at = ? WHERE kind = 'audit-prune'", Date.now() - 1);
      return state.storage.setAlarm(Date.now() - 1);
    });
    await runDurableObjectAlarm(stub);
    const targets = await runInDurableObject(stub, (_i: unknown, state: DurableObjectState) =>
      state.storage.sql
        .exec<{ target: string }>("SELECT target FROM audit")
        .toArray()
        .map((r) => r.target),
    );
    expect(targets).toContain("recent enough");
    expect(targets).not.toContain("too old");
    const job = await runInDurableObject(stub, (_i: unknown, state: DurableObjectState) =>
      state.storage.sql.exec<{ run_at: number }>("SELECT run_at FROM jobs WHERE kind = 'audit-prune'").one(),
    );
    expect(job.run_at).toBeGreaterThan(Date.now() + day / 2);
  });

  it("is for Owners and Administrators: an API key cannot read it", async () => {
    const { workspaceId } = await setup();
    const key = (
      await expectStatus(
        callJson<{ apiKey: { key: string } }>("POST", `/workspaces/${workspaceId}/api-keys`, {
          auth: OPERATOR,
          body: { name: "k", scope: "full" },
        }),
        201,
      )
    ).apiKey;
    const r = await callJson<{ error: { details: { permission: string } } }>("GET", `/workspaces/${workspaceId}/audit`, { auth: key.key });
    expect(r.status).toBe(403);
    expect(r.body.error.details.permission).toBe("audit.read");
  });
});
