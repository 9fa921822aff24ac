/** Request bodies of the workspace's members, invitations and API keys (validated with these exact schemas). */
import { z } from "zod";
import { ROLES } from "./principal";

const GRANTABLE = ROLES.filter((r) => r !== "owner") as [
  Exclude<(typeof ROLES)[number], "owner">,
  ...Exclude<(typeof ROLES)[number], "owner">[],
];
const siteIds = z
  .array(z.string().regex(/^[a-z2-7]{16}$/, "must be a site id"))
  .min(1)
  .max(25)
  .nullable()
  .describe("Limit the role to these sites of the workspace; null (or absent) means every site.");

export const apiKeyCreate = z
  .object({
    name: z.string().trim().min(1).max(100).describe("What the key is for, shown in the list and the audit log."),
    scope: z
      .enum(["read", "full"])
      .describe("`read`: what a Viewer may read. `full`: the dashboard API of the sites, but never members, keys or the workspace."),
    siteId: z
      .string()
      .regex(/^[a-z2-7]{16}$/, "must be a site id")
      .nullable()
      .optional()
      .describe("Limit the key to one site of the workspace."),
  })
  .strict();

export const invitationCreate = z
  .object({
    email: z.email().max(254).optional().describe("Send the invitation by email; without it, share the returned link yourself."),
    role: z.enum(GRANTABLE).describe("The role the person gets on accepting (the Owner is transferred, never invited)."),
    siteIds: siteIds.optional(),
  })
  .strict();

export const memberPatch = z
  .object({ role: z.enum(GRANTABLE).optional(), siteIds: siteIds.optional() })
  .strict()
  .refine((p) => p.role !== undefined || p.siteIds !== undefined, { message: "send role and/or siteIds" });

/** Handing the workspace to another member: they become its Owner, the Owner before them an Administrator. */
export const ownerTransfer = z
  .object({
    accountId: z.string().min(1).max(64).describe("The member (an account id from the member list) who becomes the Owner."),
  })
  .strict();

/** Deleting a workspace is confirmed by typing its name, so no stray click or script mistake deletes one. */
export const workspaceDelete = z
  .object({ confirm: z.string().max(200).describe("The workspace's name, exactly as it is shown.") })
  .strict();

/** A person's own new workspace: a name; it starts on the Free plan with them as Owner. */
export const workspaceCreateByAccount = z.object({ name: z.string().trim().min(1).max(200) }).strict();

/** The "stop these mails" link of an invitation mail: its signed token, and whether to stop or (undoing) mail again. */
export const invitationMailStop = z
  .object({
    token: z
      .string()
      .max(2000)
      .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, "must be the token of a stop link")
      .describe("The secret of the link in an invitation mail (its URL fragment)."),
    stop: z.boolean().default(true).describe("`false` undoes it: invitations to the address are mailed again."),
  })
  .strict();

export const invitationToken = z
  .object({ token: z.string().regex(/^iv_[a-z2-7]{16}_[a-z2-7]{40}$/, "must be an invitation token") })
  .strict();

/** What the workspace decides when an invitation is made: mail it, or why not (INVITATION_MAIL_LIMITS, a recipient's refusal). */
export const INVITATION_MAIL_DECISIONS = ["none", "sent", "recipient", "workspace_limit", "inviter_limit"] as const;
export type InvitationMailDecision = (typeof INVITATION_MAIL_DECISIONS)[number];
/** What became of a mail the workspace decided to send, when it did not go: no mail transport, or the transport failed. */
export const INVITATION_MAIL_FAILURES = ["failed", "not_configured"] as const;
export type InvitationMailFailure = (typeof INVITATION_MAIL_FAILURES)[number];
/** Whether an invitation was mailed, and if not, why. */
export const INVITATION_MAIL_STATES = [...INVITATION_MAIL_DECISIONS, ...INVITATION_MAIL_FAILURES] as const;
export type InvitationMailState = (typeof INVITATION_MAIL_STATES)[number];

// Answers

const instant = z.iso.datetime();
const role = z.enum(ROLES);

export const Member = z.strictObject({
  accountId: z.string(),
  email: z.string(),
  name: z.string(),
  role,
  siteIds: z.array(z.string()).nullable(),
  addedAt: instant,
});

export const Invitation = z.strictObject({
  id: z.string(),
  email: z.string().nullable(),
  role,
  siteIds: z.array(z.string()).nullable(),
  createdBy: z.string(),
  createdAt: instant,
  expiresAt: instant,
  status: z.enum(["pending", "accepted", "revoked", "expired"]),
  mailState: z
    .enum(INVITATION_MAIL_STATES)
    .describe(
      "Whether the invitation was mailed: `sent` (handed to the mail service), `none` (no address: a link to share), or why not: " +
        "`workspace_limit` (the workspace's invitation mails for 24 hours are used up), `inviter_limit` (yours are), " +
        "`recipient` (the address is not taking invitation mail from this service now), `not_configured` (the service has no mail set up), " +
        "`failed` (the mail service refused it or could not be reached). Unmailed invitations still work by their link.",
    ),
});

export const ApiKey = z.strictObject({
  id: z.string(),
  name: z.string(),
  scope: z.enum(["read", "full"]),
  siteId: z.string().nullable(),
  createdBy: z.string(),
  createdAt: instant,
  lastUsedAt: instant.nullable(),
  revokedAt: instant.nullable(),
});

/** What a member made that their new standing could not make: revoked with the change that answers this. */
export const RevokedWithMember = z
  .strictObject({
    invitations: z.array(z.string()).describe("Pending invitations they made, revoked (`inv_…`)."),
    apiKeys: z.array(z.string()).describe("API keys they made, revoked (`key_…`): refused from the very next request."),
    adminKeys: z
      .array(z.string())
      .describe(
        "Sites whose admin key (`sk_…`) they were shown last and who may no longer rotate it: replaced by a key shown to no one, the site's admin-key sessions ended (rotate it to get a new one).",
      ),
    webhooks: z
      .array(z.string())
      .describe(
        'Webhook endpoints they (or their revoked keys) registered on a site whose settings they may no longer manage: paused (`disabledReason: "maker"`).',
      ),
    previewLinks: z
      .array(z.string())
      .describe("Live share links they (or their revoked keys) made that they could no longer make: revoked."),
  })
  .describe(
    "Invitations they can no longer make (a role above theirs, or no right to invite) and, without the right to make keys, every key they made; on each site, what they made there that they may no longer make. Each has an audit row.",
  );

export const AuditEntry = z.strictObject({
  id: z.string(),
  at: instant,
  actor: z.strictObject({
    kind: z.enum(["operator", "siteKey", "account", "apiKey"]),
    id: z.string().nullable().describe("The account or key id; null for the operator and a site's admin key."),
    label: z.string().describe("The email or key name at the time."),
    name: z
      .string()
      .nullable()
      .describe(
        "The person's name, for an account: as recorded at the time, or for older rows the member's name today; null for keys, the operator, a site's admin key, and a former member's older rows (show `label`).",
      ),
  }),
  operation: z.string().describe("The operationId of the change."),
  kind: z.string().describe("Items, Media, Collections, Members, Keys, Sites, SEO, Domains, Search, Workspaces."),
  target: z.string(),
  siteId: z.string().nullable(),
  ip: z.string().nullable(),
  country: z.string().nullable(),
  details: z
    .unknown()
    .describe(
      "What else the change said, by operation: an item's `id`; `status` after a create, and after an `updateItem` (`published`: the saved changes are live at once); `pending: true` on a `publishItem` that made pending changes live; a role before and after.",
    ),
});
