/**
 * A workspace (Pro plan, made by the operator) with two sites, each with a `posts` collection of
 * one text field: the start of the API-key and audit tests.
 */
import { callJson, expectStatus, OPERATOR } from "../helpers";

export interface TestSiteKey {
  id: string;
  adminKey: string;
}

export interface TwoSites {
  workspaceId: string;
  a: TestSiteKey;
  b: TestSiteKey;
}

/** `schemaBy`: who creates the collections, the operator or each site's admin key (it shows in the audit log). */
export async function workspaceWithTwoSites(name: string, schemaBy: "operator" | "site" = "operator"): Promise<TwoSites> {
  const ws = await expectStatus(
    callJson<{ workspace: { id: string } }>("POST", "/workspaces", { auth: OPERATOR, body: { name, plan: "pro" } }),
    201,
  );
  const site = async () =>
    (
      await expectStatus(
        callJson<{ site: TestSiteKey }>("POST", "/sites", { auth: OPERATOR, body: { name: "S", workspaceId: ws.workspace.id } }),
        201,
      )
    ).site;
  const a = await site();
  const b = await site();
  for (const s of [a, b])
    await expectStatus(
      callJson("PUT", `/sites/${s.id}/collections/posts`, {
        auth: schemaBy === "operator" ? OPERATOR : s.adminKey,
        body: { fields: [{ key: "title", type: "text" }] },
      }),
      201,
    );
  return { workspaceId: ws.workspace.id, a, b };
}
