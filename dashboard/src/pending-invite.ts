/**
 * An invitation the person opened before they had an account (or were signed in): its token is
 * kept in this browser until they are signed in, so the dashboard brings them back to accept it
 * after sign-up (whose mailed link may open in another tab) or sign-in. It leaves when accepted,
 * refused for good, or after the invitation's own 7 days.
 */
const KEY = "open-content-edge:pending-invitation";
const WEEK_MS = 7 * 86_400_000;

export function keepInvite(token: string): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ token, at: Date.now() }));
  } catch {
    // Storage refused (private mode): the person opens the link again after signing in.
  }
}

export function pendingInvite(): string | null {
  try {
    const raw = localStorage.getItem(KEY);
    const kept = raw ? (JSON.parse(raw) as { token?: unknown; at?: unknown }) : null;
    if (typeof kept?.token === "string" && typeof kept.at === "number" && Date.now() - kept.at < WEEK_MS) return kept.token;
  } catch {
    // Unreadable: treated as none.
  }
  forgetInvite();
  return null;
}

export function forgetInvite(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}

/**
 * The address an invitation was sent to, while its page is open to someone signed out: "Create an
 * account" starts with it, so a typo cannot lead to "sent to another address". Memory only.
 */
export let invitedEmail: string | null = null;
export function noteInvitedEmail(email: string | null | undefined): void {
  invitedEmail = email ?? null;
}
