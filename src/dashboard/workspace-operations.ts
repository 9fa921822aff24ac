/** The workspace's own API (members, invitations, API keys, the audit log) as operations of the OpenAPI document. */
import { z } from "zod";
import {
  ApiKey,
  apiKeyCreate,
  AuditEntry,
  Invitation,
  invitationCreate,
  invitationMailStop,
  invitationToken,
  Member,
  memberPatch,
  ownerTransfer,
  RevokedWithMember,
  workspaceDelete,
} from "../contract/workspaces";
import { workspacePatch } from "../contract/sites";
import { CallerAccess, Session, Workspace } from "../contract/responses";
import { PlanChange, PlanChangeBody } from "../contract/plan-schemas";
import {
  acceptWithNewAccountSchema,
  acceptWithNewPasskeySchema,
  invitationPasskeyOptionsSchema,
  RegistrationOptions,
} from "../contract/accounts";
import { P } from "../openapi/params";
import { operation, type Operation, type Param } from "../openapi/registry";

const json = (description: string, schema: z.ZodType) => ({ description, schema, headers: "json" }) as const;
const W = "/workspaces/{id}";
const accountId: Param = { name: "accountId", in: "path", description: "The member's account id.", schema: z.string(), required: true };
const invitationId: Param = {
  name: "invitationId",
  in: "path",
  description: "The invitation's id (`inv_…`).",
  schema: z.string(),
  required: true,
};
const keyId: Param = { name: "keyId", in: "path", description: "The key's id (`key_…`).", schema: z.string(), required: true };
const query = (name: string, description: string, schema: z.ZodType = z.string()): Param => ({ name, in: "query", description, schema });
const AUDIT_FILTERS: Param[] = [
  query("actor", "Only changes by this account or key id, or this email or key name."),
  query("siteId", "Only changes to this site."),
  query("kind", "Only this kind (Items, Media, Collections, Members, Keys, Sites, SEO, Domains, Search, Workspaces)."),
];

const membership = z.strictObject({
  workspaceId: z.string(),
  workspaceName: z.string(),
  role: z.enum(["owner", "administrator", "editor", "author", "contributor", "viewer"]),
  siteIds: z.array(z.string()).nullable(),
});

export const workspaceOperations: Operation[] = [
  operation({
    id: "lookupInvitation",
    method: "post",
    path: "/invitations/lookup",
    tag: "Members",
    summary: "What an invitation offers, before signing in or up",
    description: "The token is the secret of the invitation link (its URL fragment).",
    auth: "none",
    body: invitationToken,
    responses: {
      200: json(
        "The invitation.",
        z.strictObject({
          invitation: z.strictObject({
            workspaceId: z.string(),
            workspaceName: z.string(),
            role: membership.shape.role,
            email: z.string().nullable(),
            invitedBy: z.string().nullable(),
            expiresAt: z.iso.datetime(),
          }),
        }),
      ),
    },
    errors: ["not_found", "gone", "forbidden", "rate_limited"],
  }),
  operation({
    id: "acceptInvitation",
    method: "post",
    path: "/invitations/accept",
    tag: "Members",
    summary: "Accept an invitation with the signed-in account",
    description:
      'Single use, within 7 days, not revoked, and its maker still a member who may invite to its role (otherwise 410 with `details.reason: "inviter"`); an invitation sent to an address is for the account with that address. The account has the membership when this answers.',
    auth: "account",
    body: invitationToken,
    responses: { 200: json("The new membership.", z.strictObject({ membership })) },
    errors: ["not_found", "gone", "bad_gateway"],
  }),
  operation({
    id: "acceptInvitationWithNewAccount",
    method: "post",
    path: "/invitations/accept/new-account",
    tag: "Members",
    summary: "Accept a mailed invitation with a new account: choose a password, signed in and joined at once",
    description:
      "For someone without an account, from the link of an invitation mail (`#/invite/<token>/<proof>`): the `proof` is only in the mail, so it " +
      "shows the address is theirs, and the account is made for exactly that address without a confirmation mail, signed in (the cookie is set) " +
      "and made a member before this answers. The link shown to the inviter has no proof: without it, sign up (`POST /accounts`) and accept. " +
      'Passwords have 10 to 256 characters. A proof that is altered or made for another invitation is 400 `details.reason: "invalid"`; ' +
      "a used, withdrawn or expired invitation is 410 before any account is made; an address that already has an account is 409 " +
      '`details.reason: "account_exists"` (sign in and use `POST /invitations/accept`). Posted from another origin: 403.',
    auth: "none",
    body: acceptWithNewAccountSchema,
    responses: {
      201: {
        description: "Account created, signed in (the cookie is set) and a member of the workspace.",
        schema: z.strictObject({ session: Session, membership }),
        headers: "session",
      },
    },
    errors: ["forbidden", "not_found", "conflict", "gone", "bad_gateway"],
  }),
  operation({
    id: "invitationPasskeyOptions",
    method: "post",
    path: "/invitations/accept/new-account/passkey/options",
    tag: "Members",
    summary: "Options to make the invited person's first passkey (a new account with a passkey instead of a password)",
    description:
      "As `POST /invitations/accept/new-account`, from the mail's `proof`: refused the same way (400 for a bad proof, 410 for a used, " +
      "withdrawn or expired invitation). The challenge works once, for 5 minutes. Passkeys belong to the configured relying party " +
      "(`PASSKEY_RP_ID`), or else to the host the dashboard is opened on.",
    auth: "none",
    body: invitationPasskeyOptionsSchema,
    responses: {
      200: {
        description: "Pass `options` to startRegistration.",
        schema: z.strictObject({ options: RegistrationOptions }),
        headers: "json",
      },
    },
    errors: ["forbidden", "not_found", "gone"],
  }),
  operation({
    id: "acceptInvitationWithNewPasskey",
    method: "post",
    path: "/invitations/accept/new-account/passkey",
    tag: "Members",
    summary: "Accept a mailed invitation with a new account and a passkey (no password): signed in and joined at once",
    description:
      "As `POST /invitations/accept/new-account`, with the browser's new passkey instead of a password (the account has no password; a " +
      "password reset can set one later). A passkey that does not verify, or a challenge expired or used, is 400 (`details.reason`).",
    auth: "none",
    body: acceptWithNewPasskeySchema,
    responses: {
      201: {
        description: "Account created with the passkey, signed in (the cookie is set) and a member of the workspace.",
        schema: z.strictObject({ session: Session, membership }),
        headers: "session",
      },
    },
    errors: ["forbidden", "not_found", "conflict", "gone", "bad_gateway"],
  }),
  operation({
    id: "stopInvitationMail",
    method: "post",
    path: "/invitations/stop-mail",
    tag: "Members",
    summary: "Stop (or allow again) invitation mails to an address",
    description:
      "The link at the end of every invitation mail (`#/stop-invitations/<token>`; the token signed for that address, valid a year). " +
      'No sign-in: from then on, invitations to the address are made but not mailed, and the inviter sees `mailState: "recipient"`. ' +
      "`stop: false` undoes it.",
    auth: "none",
    body: invitationMailStop,
    responses: { 200: json("Recorded.", z.strictObject({ stopped: z.boolean() })) },
    errors: ["not_found", "gone", "forbidden", "rate_limited"],
  }),
  operation({
    id: "getWorkspace",
    method: "get",
    path: W,
    tag: "Workspaces",
    summary: "Read a workspace and its sites",
    description:
      "Any member (a member limited to some sites sees those in `siteIds`), a key of the workspace (a key limited to one site sees that one), or the operator. `access` says what the caller may do in the workspace.",
    auth: "workspace",
    params: [P.workspaceId],
    responses: {
      200: json("The workspace.", z.strictObject({ workspace: Workspace, access: CallerAccess, planChange: PlanChange })),
    },
    errors: ["not_found"],
  }),
  operation({
    id: "updateWorkspace",
    method: "patch",
    path: W,
    tag: "Workspaces",
    summary: "Rename a workspace, or change its plan (the operator)",
    description:
      "Renaming needs `workspace.settings` (Owner, Administrator). Every site of the workspace has a new plan when this returns.",
    auth: "workspace",
    params: [P.workspaceId],
    body: workspacePatch,
    responses: { 200: json("The workspace.", z.strictObject({ workspace: Workspace })) },
    errors: ["not_found"],
  }),
  operation({
    id: "changePlan",
    method: "put",
    path: `${W}/plan`,
    tag: "Workspaces",
    summary: "Change the workspace's plan (the Owner, where the deployment allows it)",
    description:
      "Needs `workspace.plan` (the Owner alone; the operator too). A member may change it only while the deployment is self-serve " +
      "(`planChange.selfServe` of `GET /workspaces/{id}`, the operator's SELF_SERVE_PLANS); otherwise 403 `forbidden` with " +
      '`details.reason: "self_serve_off"` and `details.contact`, where to ask instead. A move to a plan that allows fewer sites or ' +
      "members than the workspace has is 409 `conflict` (nothing is deleted; the operator is not held to it). Every site of the " +
      "workspace has the new plan when this returns; the change is in the audit log with `details: {from, to}`. A 502 `bad_gateway` " +
      "(`details.applied: true`) says the plan is saved but some site has not got it yet: send the same plan again.",
    auth: "workspace",
    params: [P.workspaceId],
    body: PlanChangeBody,
    responses: { 200: json("The workspace on its new plan.", z.strictObject({ workspace: Workspace })) },
    errors: ["bad_request", "not_found", "conflict", "bad_gateway"],
  }),
  operation({
    id: "deleteWorkspace",
    method: "delete",
    path: W,
    tag: "Workspaces",
    summary: "Delete a workspace and everything in it (the Owner)",
    description:
      "Confirmed by the workspace's name in `confirm`. Every site of the workspace is erased (content, media records, custom hostnames, sessions), every member loses it on their next request, invitations and API keys stop working. The deletion is recorded in the workspace's audit log, which is kept for the usual 400 days.",
    auth: "workspace",
    params: [P.workspaceId],
    body: workspaceDelete,
    responses: {
      200: json(
        "Deleted.",
        z.strictObject({
          deleted: z.literal(true),
          workspaceId: z.string(),
          siteIds: z.array(z.string()).describe("The sites erased with it."),
        }),
      ),
    },
    errors: ["not_found", "forbidden", "bad_request", "bad_gateway"],
  }),
  operation({
    id: "transferOwnership",
    method: "post",
    path: `${W}/owner`,
    tag: "Members",
    summary: "Make another member the Owner (the Owner)",
    description:
      "The member becomes the Owner of the whole workspace; the Owner before them becomes an Administrator. Both accounts have their new role before this answers. What the Owner before made stays, since an Administrator may make it too (`revoked` is then empty). A 502 `bad_gateway` says in `details.applied` whether anything was saved: `false` when the member's account could not be told what the change takes away (a lower role, fewer sites, the membership): nothing changed, try again; `true` when only what it gives is still on its way (within a minute; until then the member has less).",
    auth: "workspace",
    params: [P.workspaceId],
    body: ownerTransfer,
    responses: {
      200: json(
        "The new Owner and the one before.",
        z.strictObject({ owner: Member, previous: Member.nullable(), revoked: RevokedWithMember }),
      ),
    },
    errors: ["not_found", "forbidden", "conflict", "bad_gateway"],
  }),
  operation({
    id: "listMembers",
    method: "get",
    path: `${W}/members`,
    tag: "Members",
    summary: "The workspace's members and their roles",
    auth: "workspace",
    params: [P.workspaceId],
    responses: { 200: json("The members, the Owner first.", z.strictObject({ members: z.array(Member) })) },
    errors: ["not_found", "forbidden"],
  }),
  operation({
    id: "updateMember",
    method: "patch",
    path: `${W}/members/{accountId}`,
    tag: "Members",
    summary: "Change a member's role or the sites they may work on",
    description:
      "Takes effect on the member's very next request: their account has the new role before this answers. Invitations and API keys they made that the new role or sites could not make are revoked with it, and on each site what they made there that they could no longer make ends (the admin key they were shown is replaced, their webhook endpoints paused, their share links revoked) before this answers. A 502 `bad_gateway` says in `details.applied` whether anything was saved: `false` when the member's account could not be told what the change takes away (a lower role, fewer sites, the membership): nothing changed, try again; `true` when only what it gives is still on its way (within a minute; until then the member has less), or when a site has not been reached yet (the workspace keeps trying).",
    auth: "workspace",
    params: [P.workspaceId, accountId],
    body: memberPatch,
    responses: { 200: json("The member.", z.strictObject({ member: Member, revoked: RevokedWithMember })) },
    errors: ["not_found", "conflict", "bad_gateway"],
  }),
  operation({
    id: "removeMember",
    method: "delete",
    path: `${W}/members/{accountId}`,
    tag: "Members",
    summary: "Remove a member (or leave, for oneself)",
    description:
      "Their next request in this workspace is refused, and so is the next request with any API key they made; their pending invitations are revoked; on every site the admin key they were shown is replaced, their webhook endpoints are paused and their share links revoked, before this answers. The Owner cannot be removed. A 502 `bad_gateway` says in `details.applied` whether anything was saved: `false` when the member's account could not be told (nothing changed, try again); `true` when a site has not been reached yet (saved; the workspace keeps trying).",
    auth: "workspace",
    params: [P.workspaceId, accountId],
    responses: {
      200: json("Removed.", z.strictObject({ removed: z.literal(true), accountId: z.string(), revoked: RevokedWithMember })),
    },
    errors: ["not_found", "conflict", "bad_gateway"],
  }),
  operation({
    id: "listInvitations",
    method: "get",
    path: `${W}/invitations`,
    tag: "Members",
    summary: "Pending invitations",
    auth: "workspace",
    params: [P.workspaceId],
    responses: { 200: json("Invitations not yet used, revoked or expired.", z.strictObject({ invitations: z.array(Invitation) })) },
    errors: ["not_found", "forbidden"],
  }),
  operation({
    id: "createInvitation",
    method: "post",
    path: `${W}/invitations`,
    tag: "Members",
    summary: "Invite someone, by email or by a link to share",
    description:
      "Single use, valid 7 days, revocable. The link (and token) are shown only in this answer. Pending invitations count towards the plan's member limit. " +
      'With `email`, the invitation is mailed unless a limit or the address says no (`invitation.mailState`: per workspace and day by plan, per inviting account and day, per address and day, README "Invitation mail"); it is made either way.',
    auth: "workspace",
    params: [P.workspaceId],
    body: invitationCreate,
    responses: {
      201: json("Created.", z.strictObject({ invitation: Invitation, token: z.string(), link: z.string(), workspaceName: z.string() })),
    },
    errors: ["not_found", "plan_required"],
  }),
  operation({
    id: "revokeInvitation",
    method: "delete",
    path: `${W}/invitations/{invitationId}`,
    tag: "Members",
    summary: "Withdraw an invitation",
    auth: "workspace",
    params: [P.workspaceId, invitationId],
    responses: { 200: json("The invitation, revoked.", z.strictObject({ invitation: Invitation })) },
    errors: ["not_found"],
  }),
  operation({
    id: "listApiKeys",
    method: "get",
    path: `${W}/api-keys`,
    tag: "Keys",
    summary: "The workspace's API keys (never the keys themselves)",
    auth: "workspace",
    params: [P.workspaceId],
    responses: { 200: json("Every key, revoked ones included.", z.strictObject({ apiKeys: z.array(ApiKey) })) },
    errors: ["not_found", "forbidden"],
  }),
  operation({
    id: "createApiKey",
    method: "post",
    path: `${W}/api-keys`,
    tag: "Keys",
    summary: "Create an API key for scripts",
    description:
      "`Authorization: Bearer ak_…` on the dashboard API of the workspace's sites (or the one site). The key is shown only in this answer; the workspace keeps its SHA-256.",
    auth: "workspace",
    params: [P.workspaceId],
    body: apiKeyCreate,
    responses: { 201: json("Created, with the key.", z.strictObject({ apiKey: ApiKey.extend({ key: z.string() }) })) },
    errors: ["not_found", "conflict"],
  }),
  operation({
    id: "revokeApiKey",
    method: "delete",
    path: `${W}/api-keys/{keyId}`,
    tag: "Keys",
    summary: "Revoke an API key (its next request is refused)",
    auth: "workspace",
    params: [P.workspaceId, keyId],
    responses: { 200: json("The key, revoked.", z.strictObject({ apiKey: ApiKey })) },
    errors: ["not_found"],
  }),
  operation({
    id: "listAudit",
    method: "get",
    path: `${W}/audit`,
    tag: "Audit",
    summary: "Who changed what: the workspace's audit log, every site merged, newest first",
    description: "Kept at least 90 days. Page with `before` = the previous page's `next`.",
    auth: "workspace",
    params: [
      P.workspaceId,
      ...AUDIT_FILTERS,
      query("before", "The cursor of the next page (`next` of the previous one)."),
      query("limit", "1..200, default 50.", z.int().default(50)),
    ],
    responses: { 200: json("One page.", z.strictObject({ entries: z.array(AuditEntry), next: z.string().nullable() })) },
    errors: ["not_found", "forbidden", "bad_request"],
  }),
  operation({
    id: "exportAudit",
    method: "get",
    path: `${W}/audit.csv`,
    tag: "Audit",
    summary: "The audit log as CSV (at most 92 days and 10,000 rows per file)",
    description: "Cells that a spreadsheet would run as a formula (starting with = + - @) are escaped.",
    auth: "workspace",
    params: [
      P.workspaceId,
      ...AUDIT_FILTERS,
      query("from", "ISO date; default 90 days before `to`."),
      query("to", "ISO date; default now."),
    ],
    responses: { 200: { description: "CSV with a header row.", media: ["text/csv"], headers: "json" } },
    errors: ["not_found", "forbidden", "bad_request"],
  }),
];
