/**
 * Identifier and credential formats. A site's public token and admin key both carry
 * the site id, so the stateless front Worker can route them to the site's
 * Durable Object without a global lookup; the object then checks the secret part.
 * The generators live in src/ids.ts (they need the runtime's random source).
 */

/** The letters every random part is drawn from (base32, lowercase). */
export const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";

/** Lengths of the random parts, by kind. */
export const ID_LENGTH = {
  site: 16,
  workspace: 16,
  token: 24,
  adminKey: 40,
  item: 20,
  media: 20,
  collection: 16,
  previewToken: 32,
  previewLink: 16,
  redirect: 16,
  apiKey: 40,
  invitation: 40,
} as const;
/**
 * A site id issued since SITE_ID_SECRET: `random` characters, then `mac` characters of an
 * HMAC of them (30 bits), 16 in all as ever. Ids from before carry no MAC (LEGACY_SITE_IDS).
 */
export const ID_SITE_MAC = { random: 10, mac: 6 } as const;
/** Prefixes, by kind (a site id has none). */
export const ID_PREFIX = {
  workspace: "ws_",
  token: "pk_",
  adminKey: "sk_",
  item: "it_",
  media: "md_",
  collection: "co_",
  previewToken: "pv_",
  previewLink: "pl_",
  redirect: "rd_",
  apiKey: "ak_",
  invitation: "iv_",
} as const;

// Every pattern below is built from ID_PREFIX and ID_LENGTH, so a format is written once.
const CHARS = "[a-z2-7]";
const random = (length: number): string => `${CHARS}{${length}}`;
/** `<prefix><owner id>_<random>`: a credential that names the site or workspace it routes to. */
const carrying = (prefix: string, owner: number, length: number): RegExp => new RegExp(`^${prefix}(${random(owner)})_${random(length)}$`);

const SITE_ID = new RegExp(`^${random(ID_LENGTH.site)}$`);
const WORKSPACE_ID = new RegExp(`^${ID_PREFIX.workspace}${random(ID_LENGTH.workspace)}$`);
const TOKEN = carrying(ID_PREFIX.token, ID_LENGTH.site, ID_LENGTH.token);
const ADMIN_KEY = carrying(ID_PREFIX.adminKey, ID_LENGTH.site, ID_LENGTH.adminKey);

export const isSiteId = (s: string): boolean => SITE_ID.test(s);
export const isWorkspaceId = (s: string): boolean => WORKSPACE_ID.test(s);

/** The site a public token names, or null when it is not a token at all. */
export function siteIdOfToken(token: string): string | null {
  return TOKEN.exec(token)?.[1] ?? null;
}

/** The site an admin key names, or null when it is not an admin key at all. */
export function siteIdOfAdminKey(key: string): string | null {
  return ADMIN_KEY.exec(key)?.[1] ?? null;
}

/**
 * Workspace credentials carry their workspace the same way: an API key `ak_<ws>_<random40>` and an
 * invitation token `iv_<ws>_<random40>` route to the workspace object, which keeps only their hashes.
 */
const API_KEY = carrying(ID_PREFIX.apiKey, ID_LENGTH.workspace, ID_LENGTH.apiKey);
const INVITATION = carrying(ID_PREFIX.invitation, ID_LENGTH.workspace, ID_LENGTH.invitation);

/** The workspace an API key names, or null when it is not an API key at all. */
export function workspaceIdOfApiKey(key: string): string | null {
  const ws = API_KEY.exec(key)?.[1];
  return ws ? `${ID_PREFIX.workspace}${ws}` : null;
}

/** The workspace an invitation token names, or null when it is not one. */
export function workspaceIdOfInvitation(token: string): string | null {
  const ws = INVITATION.exec(token)?.[1];
  return ws ? `${ID_PREFIX.workspace}${ws}` : null;
}

/**
 * A share link's token `pv_<siteId>_<random32>` (160 random bits): the URL of a draft preview is
 * its credential, so it carries its site for routing like `pk_`/`sk_`, and the site object keeps
 * only its SHA-256 (docs/share-links.md).
 */
export const PREVIEW_TOKEN = carrying(ID_PREFIX.previewToken, ID_LENGTH.site, ID_LENGTH.previewToken);

/** The site a share-link token names, or null when it is not one at all. */
export function siteIdOfPreviewToken(token: string): string | null {
  return PREVIEW_TOKEN.exec(token)?.[1] ?? null;
}
