/** Accounts (src/accounts/routes.ts), as operations of the OpenAPI document. */
import { z } from "zod";
import { Session } from "../contract/responses";
import {
  ActiveSession,
  addPasskeySchema,
  CheckYourInbox,
  passkeyOptionsSchema,
  PasskeyView,
  passkeySignUpOptionsSchema,
  passkeySignUpSchema,
  RegistrationOptions,
  renamePasskeySchema,
  resetConfirmSchema,
  resetRequestSchema,
  signUpSchema,
  verifySignUpSchema,
} from "../contract/accounts";
import { operation, type Operation } from "../openapi/registry";

const tag = "Accounts";
const session = z.strictObject({ session: Session });
const sameAnswer =
  "The answer is the same whether or not the address has an account (and takes the same time): only the mail differs. Mails to one address, and from one client, are throttled (429 `rate_limited` with `Retry-After`), for addresses with and without an account alike. Posted from another origin: 403.";

const PASSKEY_NOTE =
  "Passkeys belong to the configured relying party (`PASSKEY_RP_ID`), or else to the host the dashboard is opened on; on an IP address host this is 400 (`details.reason` `address_host`: open `localhost`).";
const passkeyIdParam = {
  name: "passkeyId",
  in: "path" as const,
  description: "A passkey's `id` (its credential id, base64url) from the list.",
  schema: z.string(),
  required: true,
};

export const accountOperations: Operation[] = [
  operation({
    id: "signUp",
    method: "post",
    path: "/accounts",
    tag,
    summary: "Start a sign-up: mail a link that proves the address",
    description: `The link (valid 24 hours) opens the dashboard with its token in the URL fragment; the account is created only when it is used (\`POST /accounts/verify\`). An address that already has an account gets a mail saying so instead. ${sameAnswer}`,
    auth: "none",
    body: signUpSchema,
    responses: { 202: { description: "Check your inbox.", schema: CheckYourInbox, headers: "json" } },
    errors: ["forbidden", "rate_limited"],
  }),
  operation({
    id: "verifySignUp",
    method: "post",
    path: "/accounts/verify",
    tag,
    summary: "Finish a sign-up with the mailed link's token and a password; signs in",
    description:
      "Passwords have 10 to 256 characters. An expired or altered token is 400 with `details.reason` `expired` or `invalid`; an address that got an account meanwhile is 409.",
    auth: "none",
    body: verifySignUpSchema,
    responses: { 201: { description: "Account created and signed in; the cookie is set.", schema: session, headers: "session" } },
    errors: ["forbidden", "conflict"],
  }),
  operation({
    id: "requestPasswordReset",
    method: "post",
    path: "/account/password-reset",
    tag,
    summary: "Mail a single-use password reset link (valid one hour)",
    description: sameAnswer,
    auth: "none",
    body: resetRequestSchema,
    responses: { 202: { description: "Check your inbox.", schema: CheckYourInbox, headers: "json" } },
    errors: ["forbidden", "rate_limited"],
  }),
  operation({
    id: "confirmPasswordReset",
    method: "post",
    path: "/account/password-reset/confirm",
    tag,
    summary: "Set a new password with a reset link's token; ends every other session, removes every passkey and signs in",
    description:
      "A link works once and for one hour: used or expired, 400 with `details.reason` `expired_or_used`. A reset is how an account is taken back, so it also removes every passkey (any of them may be one a thief added; `passkeysRemoved` says how many) and mails the address that the password changed.",
    auth: "none",
    body: resetConfirmSchema,
    responses: {
      201: {
        description: "Password changed and signed in; the cookie is set.",
        schema: z.strictObject({
          session: Session,
          passkeysRemoved: z.int().min(0).describe("How many passkeys the reset removed: add the ones you use again."),
        }),
        headers: "session",
      },
    },
    errors: ["forbidden"],
  }),
  operation({
    id: "listAccountSessions",
    method: "get",
    path: "/account/sessions",
    tag,
    summary: "The account's live sessions (the caller's is `current`)",
    auth: "account",
    responses: { 200: { description: "Newest first.", schema: z.strictObject({ sessions: z.array(ActiveSession) }), headers: "json" } },
    errors: [],
  }),
  operation({
    id: "endAccountSession",
    method: "delete",
    path: "/account/sessions/{sessionId}",
    tag,
    summary: "End one of the account's sessions",
    auth: "account",
    params: [{ name: "sessionId", in: "path", description: "A session's public `id` from the list.", schema: z.string(), required: true }],
    responses: { 200: { description: "Ended.", schema: z.strictObject({ ended: z.literal(true) }), headers: "json" } },
    errors: ["not_found"],
  }),
  operation({
    id: "passkeySignUpOptions",
    method: "post",
    path: "/accounts/verify/passkey/options",
    tag,
    summary: "Options to make the new account's passkey (sign-up with a passkey instead of a password)",
    description: `${PASSKEY_NOTE} The mailed sign-up link's token proves the address; its challenge works once, for 5 minutes.`,
    auth: "none",
    body: passkeySignUpOptionsSchema,
    responses: {
      200: {
        description: "Pass `options` to startRegistration.",
        schema: z.strictObject({ options: RegistrationOptions }),
        headers: "json",
      },
    },
    errors: ["forbidden"],
  }),
  operation({
    id: "passkeySignUp",
    method: "post",
    path: "/accounts/verify/passkey",
    tag,
    summary: "Finish a sign-up with the mailed link's token and a new passkey (no password); signs in",
    description:
      "The account has no password; one can be set later with a password reset. An expired or altered token, or a passkey that does not verify, is 400 (`details.reason`); an address that got an account meanwhile is 409.",
    auth: "none",
    body: passkeySignUpSchema,
    responses: { 201: { description: "Account created and signed in; the cookie is set.", schema: session, headers: "session" } },
    errors: ["forbidden", "conflict"],
  }),
  operation({
    id: "passkeyRegistrationOptions",
    method: "post",
    path: "/account/passkeys/options",
    tag,
    summary: "Options to add a passkey to the signed-in account (after a recent sign-in, or with the password)",
    description: `${PASSKEY_NOTE} The challenge works once, for 5 minutes; the account's passkeys are listed in \`excludeCredentials\`. Only a session that signed in within \`RECENT_SIGN_IN_SECONDS\` (10 minutes) gets one without more; otherwise send the account's \`password\` (checked and throttled as a sign-in), or sign in again (a passkey sign-in will do), else 403 with \`details.reason\` \`sign_in_again\` (\`wrong_password\` for a wrong one, on the \`password\` field).`,
    auth: "account",
    body: passkeyOptionsSchema,
    bodyOptional: true,
    responses: {
      200: {
        description: "Pass `options` to startRegistration.",
        schema: z.strictObject({ options: RegistrationOptions }),
        headers: "json",
      },
    },
    errors: ["bad_request", "forbidden", "rate_limited"],
    errorExamples: {
      forbidden: {
        message: "To add a passkey, confirm it is you: enter your password (you signed in more than 10 minutes ago).",
        details: { reason: "sign_in_again", signedInAt: "2026-12-01T09:00:00.000Z", withinSeconds: 600, hasPassword: true },
      },
    },
  }),
  operation({
    id: "addPasskey",
    method: "post",
    path: "/account/passkeys",
    tag,
    summary: "Add the passkey the browser made to the signed-in account",
    description:
      "`name` defaults to the date it was added. A challenge used before or expired, or an answer that does not verify (another origin or relying party), is 400 with `details.reason`; the 21st passkey, or one already on the account, is 409. The account's address is mailed that a passkey was added, with a link to reset the password.",
    auth: "account",
    body: addPasskeySchema,
    responses: { 201: { description: "Added.", schema: z.strictObject({ passkey: PasskeyView }), headers: "json" } },
    errors: ["conflict"],
  }),
  operation({
    id: "listPasskeys",
    method: "get",
    path: "/account/passkeys",
    tag,
    summary: "The signed-in account's passkeys (oldest first), with when each was last used",
    auth: "account",
    responses: { 200: { description: "Oldest first.", schema: z.strictObject({ passkeys: z.array(PasskeyView) }), headers: "json" } },
    errors: [],
  }),
  operation({
    id: "renamePasskey",
    method: "patch",
    path: "/account/passkeys/{passkeyId}",
    tag,
    summary: "Rename one of the account's passkeys",
    auth: "account",
    params: [passkeyIdParam],
    body: renamePasskeySchema,
    responses: { 200: { description: "Renamed.", schema: z.strictObject({ passkey: PasskeyView }), headers: "json" } },
    errors: ["not_found"],
  }),
  operation({
    id: "removePasskey",
    method: "delete",
    path: "/account/passkeys/{passkeyId}",
    tag,
    summary: "Remove one of the account's passkeys",
    description:
      "Refused with 409 (`details.reason` `last_sign_in_method`) when it is the account's only way to sign in: no password and no other passkey. The account's address is mailed that it was removed.",
    auth: "account",
    params: [passkeyIdParam],
    responses: { 200: { description: "Removed.", schema: z.strictObject({ removed: z.literal(true) }), headers: "json" } },
    errors: ["not_found", "conflict"],
  }),
];
