import { describe, expect, it } from "vitest";
import schemaDoc from "../docs/storage-schema.md?raw";
import { newSite } from "./helpers";
import { signUp } from "./helpers/accounts";

type Columns = Record<string, string[]>;

/** Tables and their columns as docs/storage-schema.md lists them, under each object's `## ` heading. */
function documented(): Record<string, Columns> {
  const out: Record<string, Columns> = {};
  let object = "";
  let table = "";
  for (const line of schemaDoc.split("\n")) {
    if (line.startsWith("## ")) {
      object = /\(`(\w+)`\)/.exec(line)?.[1] ?? "";
      table = "";
      if (object) out[object] = {};
      continue;
    }
    const t = /^### `(\w+)`/.exec(line);
    if (t && object) {
      table = t[1]!;
      out[object]![table] = [];
      continue;
    }
    const c = /^\|\s*`(\w+)`\s*\|/.exec(line);
    if (c && table) out[object]![table]!.push(c[1]!);
  }
  return out;
}

/** Tables and columns of an object's SQLite database, as its migrations left it (internal tables aside). */
async function actual(stub: DurableObjectStub): Promise<Columns> {
  const { runInDurableObject } = await import("cloudflare:test");
  return runInDurableObject(stub, (_instance: unknown, state: DurableObjectState) => {
    const sql = state.storage.sql;
    const tables = sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite%'",
      )
      .toArray()
      .map((r) => r.name);
    // A virtual table's shadow tables (`items_fts_data`, …) are SQLite's own, as its internal tables are.
    const virtual = sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")
      .toArray()
      .map((r) => r.name);
    const shadow = (t: string) => virtual.some((v) => t.startsWith(`${v}_`) && !virtual.includes(t));
    const out: Columns = {};
    for (const t of tables.filter((x) => !shadow(x)).sort())
      out[t] = sql
        .exec<{ name: string }>(`SELECT name FROM pragma_table_info(?)`, t)
        .toArray()
        .map((r) => r.name);
    return out;
  });
}

// Tables by name, columns by name: the page may list a table's columns in the order that reads best.
const sorted = (c: Columns) =>
  Object.fromEntries(
    Object.entries(c)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([t, cols]) => [t, [...cols].sort()]),
  );

describe("docs/storage-schema.md", () => {
  it("lists every table and column the migrations create, and nothing else", async () => {
    const { env } = await import("cloudflare:workers");
    const site = await newSite();
    const doc = documented();
    const site_ = await actual(env.SITE.get(env.SITE.idFromName(site.id)));
    const workspace = await actual(env.WORKSPACE.get(env.WORKSPACE.idFromName(site.workspaceId)));
    const operator = env.OPERATOR_SESSIONS.get(env.OPERATOR_SESSIONS.idFromName("operator"));
    const operatorSessions = await actual(operator);
    // An Account object makes its tables when its account is made: sign one up first.
    const { account } = await signUp();
    const account_ = await actual(env.ACCOUNT.get(env.ACCOUNT.idFromName(account.id)));
    expect(sorted(doc.Site ?? {})).toEqual(sorted(site_));
    expect(sorted(doc.Workspace ?? {})).toEqual(sorted(workspace));
    expect(sorted(doc.OperatorSessions ?? {})).toEqual(sorted(operatorSessions));
    expect(sorted(doc.Account ?? {})).toEqual(sorted(account_));
  });
});
