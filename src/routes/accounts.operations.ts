/** Accounts (src/routes/accounts.ts), as operations of the OpenAPI document. */
import { z } from "zod";
import { Session } from "../contract/responses";
import {
  ActiveSession,
  CheckYourInbox,
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
    summary: "Set a new password with a reset link's token; ends every other session and signs in",
    description: "A link works once and for one hour: used or expired, 400 with `details.reason` `expired_or_used`.",
    auth: "none",
    body: resetConfirmSchema,
    responses: { 201: { description: "Password changed and signed in; the cookie is set.", schema: session, headers: "session" } },
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
];
