/**
 * What a member's change (removed, another role, other sites) took with it, as the Members screen
 * says it: the API answers which of their invitations and keys were revoked (`revoked`).
 */
/** What went with a member's change, in words (" Their 2 pending invitations and 1 API key were revoked."); empty when nothing did. */
export function revokedWords(r: { invitations: string[]; apiKeys: string[] }): string {
  const n = (count: number, one: string) => `${count} ${one}${count === 1 ? "" : "s"}`;
  const parts = [
    ...(r.invitations.length ? [n(r.invitations.length, "pending invitation")] : []),
    ...(r.apiKeys.length ? [n(r.apiKeys.length, "API key")] : []),
  ];
  return parts.length ? ` Their ${parts.join(" and ")} ${r.invitations.length + r.apiKeys.length === 1 ? "was" : "were"} revoked.` : "";
}
