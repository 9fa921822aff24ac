/** Dashboard sign-in (src/accounts/session-routes.ts) and the dashboard's page, as operations of the OpenAPI document. */
import { z } from "zod";
import { Session } from "../contract/responses";
import { operation, type Operation } from "../openapi/registry";
import { signInSchema } from "../contract/sites";
import { AuthenticationOptions, passkeySignInSchema } from "../contract/accounts";

const tag = "Sessions";
const session = z.strictObject({ session: Session });

export const sessionOperations: Operation[] = [
  operation({
    id: "signIn",
    method: "post",
    path: "/sessions",
    tag,
    summary: "Exchange a site admin key, the operator token, or an account's email and password for a session cookie",
    description:
      "After 3 wrong keys from one client, each further one doubles the wait before the next is even checked (2 s … 15 min): 429 `rate_limited` with `Retry-After`. With `{email, password}`: one 401 for a wrong password and for an address without an account alike, after the same work; the wait starts after 3 wrong passwords for one account from one client, 20 for one account from anywhere, or 30 for any accounts from one client, whether or not the address has an account. A sign-in posted from another origin is 403.",
    auth: "none",
    body: signInSchema,
    responses: { 201: { description: "Signed in; the cookie is set.", schema: session, headers: "session" } },
    errors: ["unauthorized", "forbidden", "rate_limited"],
  }),
  operation({
    id: "passkeySignInOptions",
    method: "post",
    path: "/sessions/passkey/options",
    tag,
    summary: "A challenge for signing in with a passkey (no address typed)",
    description:
      "Pass `options` to @simplewebauthn/browser's startAuthentication; the browser offers the passkeys it holds for this site. The challenge works once, for 5 minutes. Passkeys belong to the configured relying party (`PASSKEY_RP_ID`), or else to this host; on an IP address host this is 400 (`details.reason` `address_host`). Posted from another origin: 403.",
    auth: "none",
    responses: { 200: { description: "The options.", schema: z.strictObject({ options: AuthenticationOptions }), headers: "json" } },
    errors: ["bad_request", "forbidden"],
  }),
  operation({
    id: "passkeySignIn",
    method: "post",
    path: "/sessions/passkey",
    tag,
    summary: "Sign in with a passkey: the same session and cookie as a password sign-in",
    description:
      'One 401 for a passkey not known here, an answer for another origin or relying party, an expired or reused challenge, or a signature counter that went back (a cloned authenticator). Throttled like a password sign-in by client and by client and account (429 `rate_limited` with `Retry-After`); a new browser or country gets the "new sign-in" mail.',
    auth: "none",
    body: passkeySignInSchema,
    responses: { 201: { description: "Signed in; the cookie is set.", schema: session, headers: "session" } },
    errors: ["unauthorized", "forbidden", "rate_limited"],
  }),
  operation({
    id: "getCurrentSession",
    method: "get",
    path: "/sessions/current",
    tag,
    summary: "Who the session cookie signs in",
    auth: "none",
    responses: { 200: { description: "The live session.", schema: session, headers: "json" } },
    errors: ["unauthorized"],
  }),
  operation({
    id: "getSessionStatus",
    method: "get",
    path: "/sessions/current/status",
    tag,
    summary: "Who the session cookie signs in, or null when no one is signed in",
    description:
      "As `GET /sessions/current`, for a page that asks whether anyone is signed in: without a cookie, or with one whose session has ended, the answer is 200 `{session: null}`, not 401. The dashboard asks it on every load.",
    auth: "none",
    responses: {
      200: { description: "The live session, or null.", schema: z.strictObject({ session: Session.nullable() }), headers: "json" },
    },
    errors: [],
  }),
  operation({
    id: "signOut",
    method: "delete",
    path: "/sessions/current",
    tag,
    summary: "End the session now and clear the cookie",
    auth: "none",
    responses: { 200: { description: "Signed out.", schema: z.strictObject({ signedOut: z.literal(true) }), headers: "session" } },
    errors: ["forbidden"],
  }),
  operation({
    id: "getDashboard",
    method: "get",
    path: "/dashboard/",
    tag,
    summary: "The dashboard for site owners (a web page)",
    description: "Served on the service's own hosts only. Its files live under `/dashboard/`.",
    auth: "none",
    responses: { 200: { description: "The dashboard's page.", media: ["text/html"], headers: "dashboard" } },
    errors: [],
  }),
];
