/** Request bodies and answers of the account endpoints (src/accounts/routes.ts, src/accounts/session-routes.ts). */
import { z } from "zod";
import { ROLES } from "./principal";
import { invitationToken } from "./workspaces";

/** Bounds of a password: at least 10 characters, at most 256 so the KDF's input stays bounded. */
export const PASSWORD_LENGTH = { min: 10, max: 256 } as const;

const email = z.string().trim().min(3, "enter your email address").max(254, "an email address has at most 254 characters");
const password = z
  .string()
  .min(PASSWORD_LENGTH.min, `use at least ${PASSWORD_LENGTH.min} characters`)
  .max(PASSWORD_LENGTH.max, `use at most ${PASSWORD_LENGTH.max} characters`);
const name = z.string().trim().min(1).max(100);
/** A secret from a mailed link (its fragment), sent back in a body: never in a path or query. */
const linkToken = z.string().min(1, "the link is incomplete; open it from the mail again").max(2000);

export const keySignInSchema = z.object({ key: z.string().trim().min(1, "enter your admin key").max(200) }).strict();
export const passwordSignInSchema = z
  .object({ email, password: z.string().min(1, "enter your password").max(PASSWORD_LENGTH.max) })
  .strict();
export const signUpSchema = z.object({ email, name: name.optional() }).strict();
export const verifySignUpSchema = z.object({ token: linkToken, password, name: name.optional() }).strict();
/**
 * Accepting an invitation with a new account: the invitation's token, the proof of its address
 * that only its mail carries (the link's last part), and the new account's password and name.
 */
const invitationProof = linkToken.describe(
  "The part of the mailed invitation link after the token (`#/invite/<token>/<proof>`): it proves the address.",
);
export const acceptWithNewAccountSchema = invitationToken.extend({ proof: invitationProof, password, name: name.optional() }).strict();
export const resetRequestSchema = z.object({ email }).strict();
export const resetConfirmSchema = z.object({ token: linkToken, password }).strict();

const instant = z.string().describe("ISO 8601 instant, UTC");
export const AccountView = z.strictObject({
  id: z.string().describe("`ac_…`, derived from the normalised email address."),
  email: z.string(),
  name: z.string(),
  createdAt: instant,
  hasPassword: z.boolean(),
});
export const MembershipView = z.strictObject({
  workspaceId: z.string(),
  workspaceName: z.string(),
  role: z.enum(ROLES),
  siteIds: z.array(z.string()).nullable().describe("The sites the role applies to; null: every site of the workspace."),
});
export const ActiveSession = z.strictObject({
  id: z.string().describe("The session's public handle (never its secret)."),
  createdAt: instant,
  lastSeenAt: instant,
  expiresAt: instant,
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  country: z.string().nullable(),
  current: z.boolean().describe("The session this request was made with."),
});
export const CheckYourInbox = z.strictObject({
  status: z.literal("check_your_inbox"),
  message: z.string(),
});

/** base64url, as WebAuthn's JSON forms carry binary values. */
const b64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, "not base64url");
/**
 * A browser's PublicKeyCredential as JSON (what @simplewebauthn/browser's startRegistration or
 * startAuthentication answer, WebAuthn Level 3's toJSON()). Members not listed are dropped;
 * @simplewebauthn/server checks every byte that matters.
 */
const credentialFields = {
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal("public-key"),
  clientExtensionResults: z
    .object({
      appid: z.boolean().optional(),
      credProps: z.object({ rk: z.boolean().optional() }).optional(),
      hmacCreateSecret: z.boolean().optional(),
    })
    .describe("What the browser says about extensions (none are asked for)."),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};
export const RegistrationCredential = z
  .object({
    ...credentialFields,
    response: z.object({
      clientDataJSON: b64url(4000),
      attestationObject: b64url(20000),
      authenticatorData: b64url(20000).optional(),
      transports: z.array(z.string().max(40)).max(10).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: b64url(4000).optional(),
    }),
  })
  .describe("The browser's new credential (navigator.credentials.create), as JSON.");
export const AuthenticationCredential = z
  .object({
    ...credentialFields,
    response: z.object({
      clientDataJSON: b64url(4000),
      authenticatorData: b64url(4000),
      signature: b64url(2000),
      userHandle: b64url(200).optional(),
    }),
  })
  .describe("The browser's assertion (navigator.credentials.get), as JSON.");
const passkeyName = z.string().trim().min(1, "give the passkey a name").max(100, "use at most 100 characters");

/** Asking to add a passkey: the account's password again when the session's sign-in is not recent (src/identity/recent-sign-in.ts). */
export const passkeyOptionsSchema = z
  .object({
    password: z
      .string()
      .min(1, "enter your password")
      .max(PASSWORD_LENGTH.max)
      .optional()
      .describe("Needed when the session signed in more than RECENT_SIGN_IN_SECONDS (10 minutes) ago."),
  })
  .strict();
export const addPasskeySchema = z.object({ response: RegistrationCredential, name: passkeyName.optional() }).strict();
export const renamePasskeySchema = z.object({ name: passkeyName }).strict();
export const passkeySignInSchema = z.object({ response: AuthenticationCredential }).strict();
export const passkeySignUpOptionsSchema = z.object({ token: linkToken }).strict();
export const passkeySignUpSchema = z
  .object({ token: linkToken, response: RegistrationCredential, name: name.optional(), passkeyName: passkeyName.optional() })
  .strict();
/** The same for an invitation: a new account with a passkey instead of a password, from the mail's proof. */
export const invitationPasskeyOptionsSchema = invitationToken.extend({ proof: invitationProof }).strict();
export const acceptWithNewPasskeySchema = invitationToken
  .extend({ proof: invitationProof, response: RegistrationCredential, name: name.optional(), passkeyName: passkeyName.optional() })
  .strict();

export const PasskeyView = z.strictObject({
  id: z.string().describe("The credential id (base64url)."),
  name: z.string(),
  createdAt: instant,
  lastUsedAt: instant.nullable().describe("The last sign-in with it; null: never used to sign in."),
});
/** Options for navigator.credentials.create / get, as @simplewebauthn/server makes them (WebAuthn's JSON forms). */
export const RegistrationOptions = z
  .looseObject({
    challenge: z.string(),
    rp: z.looseObject({ id: z.string().optional(), name: z.string() }),
    user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.looseObject({ type: z.literal("public-key"), alg: z.number() })),
    timeout: z.number().optional(),
    excludeCredentials: z.array(z.looseObject({ id: z.string(), type: z.literal("public-key") })).optional(),
  })
  .describe("PublicKeyCredentialCreationOptionsJSON: pass it to @simplewebauthn/browser's startRegistration({optionsJSON}).");
export const AuthenticationOptions = z
  .looseObject({
    challenge: z.string(),
    rpId: z.string().optional(),
    timeout: z.number().optional(),
    userVerification: z.enum(["required", "preferred", "discouraged"]).optional(),
  })
  .describe("PublicKeyCredentialRequestOptionsJSON: pass it to @simplewebauthn/browser's startAuthentication({optionsJSON}).");
