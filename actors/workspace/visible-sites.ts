/**
 * Which of the workspace's sites a caller may see in the workspace's own answers. A member
 * limited to some sites sees those (their current row here, the authority, not the pushed copy),
 * and an API key limited to one site sees that one: anything else would list sites whose every
 * other answer is 404 to them.
 */
import type { Principal } from "../../src/contract/principal";
import { readMember } from "./members";

export function visibleSiteIds(sql: SqlStorage, principal: Principal, siteIds: readonly string[]): string[] {
  const only =
    principal.kind === "apiKey"
      ? principal.siteId === null
        ? null
        : [principal.siteId]
      : principal.kind === "account"
        ? (readMember(sql, principal.accountId)?.siteIds ?? null)
        : null;
  return only === null ? [...siteIds] : siteIds.filter((id) => only.includes(id));
}
