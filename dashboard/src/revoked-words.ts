/**
 * What a member's change (removed, another role, other sites) took with it, as the Members screen
 * says it: the API answers which of their invitations and keys were revoked, and, on the sites,
 * which admin keys were replaced, which webhook endpoints paused and which share links revoked
 * (`revoked`).
 */
interface Revoked {
  invitations: string[];
  apiKeys: string[];
  adminKeys: string[];
  webhooks: string[];
  previewLinks: string[];
}

const n = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/**
 * What went with a member's change, in words (" Their 2 pending invitations and 1 API key were
 * revoked. The admin key of 1 site they were shown was replaced: rotate it to get a new one.");
 * empty when nothing did.
 */
export function revokedWords(r: Revoked): string {
  const revoked = [
    ...(r.invitations.length ? [n(r.invitations.length, "pending invitation")] : []),
    ...(r.apiKeys.length ? [n(r.apiKeys.length, "API key")] : []),
    ...(r.previewLinks.length ? [n(r.previewLinks.length, "share link")] : []),
  ];
  const count = r.invitations.length + r.apiKeys.length + r.previewLinks.length;
  return [
    revoked.length ? ` Their ${revoked.join(" and ")} ${count === 1 ? "was" : "were"} revoked.` : "",
    r.webhooks.length
      ? ` ${n(r.webhooks.length, "webhook endpoint")} they added ${r.webhooks.length === 1 ? "was" : "were"} paused: check the address on the site's Webhooks screen before resuming.`
      : "",
    r.adminKeys.length
      ? ` The admin key they were shown of ${n(r.adminKeys.length, "site")} was replaced: scripts using it stop, and Settings → Admin key gives you a new one.`
      : "",
  ].join("");
}
