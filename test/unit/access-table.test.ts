import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../../src/api-docs/operations";
import { ACCESS, matchOperation } from "../../src/access/operations";
import { readFileSync } from "node:fs";
import { roleTableBlock } from "../../src/access/table";
import { PERMISSIONS, ROLE_PERMISSIONS, ROLES, WORKSPACE_PERMISSIONS } from "../../src/access/roles";

/** Operations a caller must be authorised for: every one whose auth is not "none" or a public token. */
// (An account's own endpoints, auth "account", concern the caller alone: no role applies.)
const guarded = OPERATIONS.filter((op) => op.auth === "siteKey" || op.auth === "operator" || op.auth === "workspace");

describe("the access table (src/access) and the OpenAPI registry", () => {
  it("has an entry, with the same route, for every dashboard operation of the registry", () => {
    const missing = guarded.filter((op) => !ACCESS.some((e) => e.id === op.id)).map((op) => op.id);
    expect(missing).toEqual([]);
    for (const op of guarded) {
      const entry = ACCESS.find((e) => e.id === op.id)!;
      expect(`${entry.method} ${entry.path}`, op.id).toBe(`${op.method} ${op.path}`);
    }
  });

  it("names only operations the registry documents", () => {
    const ids = new Set(OPERATIONS.map((op) => op.id));
    expect(ACCESS.filter((e) => !ids.has(e.id)).map((e) => e.id)).toEqual([]);
  });

  it("matches each entry's own route to it, and nothing else", () => {
    for (const e of ACCESS) {
      const concrete = e.path.replace(/\{[^}]+\}/g, "x1");
      expect(matchOperation(e.method, concrete)?.id, e.id).toBe(e.id);
    }
    expect(matchOperation("get", "/sites/x1/unknown")).toBeNull();
    expect(matchOperation("post", "/sites/x1/collections/x1/items/x1/archive")).toBeNull();
    expect(matchOperation("head", "/sites/x1")?.id).toBe("getSite");
  });

  it("ranks the roles: each has at least what the next one has", () => {
    for (let i = 1; i < ROLES.length; i++) {
      const more = ROLE_PERMISSIONS[ROLES[i - 1]!];
      for (const p of ROLE_PERMISSIONS[ROLES[i]!]) expect(more.has(p), `${ROLES[i - 1]} lacks ${p}`).toBe(true);
    }
    expect([...ROLE_PERMISSIONS.owner].sort()).toEqual([...PERMISSIONS].sort());
    for (const p of WORKSPACE_PERMISSIONS) expect(PERMISSIONS).toContain(p);
  });

  it("keeps the roles' promises: a Contributor cannot publish, an Author publishes only their own, only the Owner deletes the workspace", () => {
    expect(ROLE_PERMISSIONS.contributor.has("items.publish.own")).toBe(false);
    expect(ROLE_PERMISSIONS.author.has("items.publish.own")).toBe(true);
    expect(ROLE_PERMISSIONS.author.has("items.publish.any")).toBe(false);
    expect(ROLE_PERMISSIONS.editor.has("items.publish.any")).toBe(true);
    expect(ROLE_PERMISSIONS.editor.has("collections.manage")).toBe(false);
    expect(ROLE_PERMISSIONS.administrator.has("members.manage")).toBe(true);
    expect(ROLE_PERMISSIONS.administrator.has("workspace.delete")).toBe(false);
    expect([...ROLE_PERMISSIONS.viewer]).toEqual(["site.read"]);
  });

  it("is the table docs/workspaces.md shows (npm run roles:table writes it)", () => {
    const doc = readFileSync(new URL("../../docs/workspaces.md", import.meta.url), "utf8")
      .replace(/\| -+/g, "| ---")
      .replace(/ +\|/g, " |");
    const block = roleTableBlock().replace(/ +\|/g, " |");
    expect(doc).toContain(block);
  });
});
