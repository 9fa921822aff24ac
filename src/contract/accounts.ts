/** Request bodies and answers of the account endpoints (src/routes/accounts.ts, src/routes/sessions.ts). */
import { z } from "zod";
import { ROLES } from "./principal";

/** Bounds of a password: at least 10 characters (issue 25), at most 256 so the KDF's input stays bounded. */
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
