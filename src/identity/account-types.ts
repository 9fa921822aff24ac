/** What the Account object answers over RPC (actors/account.ts), shared with the front Worker. */
import type { Membership } from "../contract/principal";
import type { SessionInfo } from "./session-policy";

export interface AccountPublic {
  id: string;
  email: string;
  name: string;
  createdAt: string;
  hasPassword: boolean;
}

/** Where a request came from, as the front Worker saw it; kept with a session so its owner recognises it. */
export interface ClientMeta {
  userAgent: string | null;
  ip: string | null;
  country: string | null;
}

export interface StartedSession {
  id: string;
  session: SessionInfo;
  account: AccountPublic;
  /** This browser family and country had not signed in to the account before: a "new sign-in" mail goes out. */
  newClient: boolean;
}

export interface VerifiedSession {
  session: SessionInfo & { publicId: string | null };
  account: AccountPublic;
  memberships: Membership[];
}

export interface ListedSession {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string | null;
  ip: string | null;
  country: string | null;
  current: boolean;
}

/** What `Account.setMembership` answers: the Workspace acknowledges its change only after `ok`. */
export type SetMembershipResult = { ok: true } | { ok: false; reason: "no_account" | "invalid" | "too_many_workspaces" };

/** A passkey as the account's owner sees it (never its key). */
export interface PasskeyView {
  /** The credential id, base64url. */
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export type AddPasskeyResult =
  { ok: true; passkey: PasskeyView } | { ok: false; reason: "no_account" | "used_challenge" | "invalid" | "too_many" | "exists" };

/** A removal names the passkey removed (for the mail that says so). */
export type RemovePasskeyResult = { removed: string } | "not_found" | "last_method";

/** A finished password reset: the new session, and the names of the passkeys the reset removed. */
export interface ResetDone extends StartedSession {
  passkeysRemoved: string[];
}
