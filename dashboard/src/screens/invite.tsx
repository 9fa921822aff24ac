/**
 * The page an invitation link opens (`#/invite/iv_…`, the secret in the fragment): which
 * workspace, which role, from whom; then accept with the signed-in account, or create an account
 * (or sign in) first and come back here by itself (pending-invite.ts); the link of the invitation
 * mail proves the address, so from it a new person chooses a password here and joins at once
 * (invite-new-account.tsx). A used, withdrawn or expired link (410) and a link for another address
 * (403) say what to do instead.
 */
import { useEffect, useState } from "preact/hooks";
import { ApiFailure, call, client, sessionLost } from "../api";
import { forgetInvite, keepInvite, noteInvitedEmail } from "../pending-invite";
import { goSavedWith, href } from "../router";
import { refreshSession, session, signOut } from "../session";
import { ROLE_NAMES } from "../site-state";
import { explain, Notice, when } from "../ui";
import { useLoad } from "../use-load";
import { NewAccountForInvite } from "./invite-new-account";

/** A refusal that no sign-in can fix: the link is used, withdrawn, expired or made up. */
const dead = (e: unknown) => e instanceof ApiFailure && (e.status === 410 || e.status === 404);

/**
 * A dead link in words. The person who invited cannot help when they no longer may invite to this
 * role (410 `details.reason: "inviter"`): the API's message says whom to ask instead.
 */
const deadWords = (e: unknown): string =>
  e instanceof ApiFailure && e.status === 410 && e.error.details?.reason !== "inviter"
    ? "This invitation was already used, withdrawn, or has expired. Ask the person who invited you to send a new one."
    : explain(e);

/** `proof`: the last part of the mailed link, which proves the invited address (absent from a shared link). */
export function Invite(props: { token: string; proof?: string | undefined }) {
  const token = props.token;
  const s = session.value && !sessionLost.value ? session.value : null;
  const offer = useLoad(() => call(client.POST("/invitations/lookup", { body: { token } })).then((r) => r.invitation), [token]);
  const [accepting, setAccepting] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const signedIn = s?.kind === "account" ? s : null;

  useEffect(() => {
    // Not signed in with an account yet: the invitation waits in this browser until they are;
    // once they are back here signed in (or the link is dead), it has done its job.
    if (!signedIn && !dead(offer.error)) keepInvite(token);
    else forgetInvite();
  }, [offer.error, signedIn, token]);

  const accept = async () => {
    setAccepting(true);
    setFailure(null);
    try {
      const { membership } = await call(client.POST("/invitations/accept", { body: { token } }));
      forgetInvite();
      await refreshSession();
      goSavedWith(`You joined ${membership.workspaceName} as ${ROLE_NAMES[membership.role]}.`, "workspaces");
    } catch (err) {
      if (dead(err)) forgetInvite();
      setFailure(err);
    } finally {
      setAccepting(false);
    }
  };
  const switchAccount = async () => {
    keepInvite(token);
    await signOut();
  };

  const inv = offer.data;
  const otherAddress = inv?.email && signedIn?.account && inv.email.toLowerCase() !== signedIn.account.email.toLowerCase();
  return (
    <main class="sign-in">
      <div class="card">
        <h1 tabIndex={-1}>{inv ? `Join ${inv.workspaceName}` : "Invitation"}</h1>
        {offer.data === null && !offer.error && <p class="loading">Opening the invitation…</p>}
        {offer.error && (
          <Notice kind="error">
            {deadWords(offer.error)} <a href={href()}>Go to the dashboard</a>
          </Notice>
        )}
        {inv && (
          <>
            <p>
              {inv.invitedBy ? <strong>{inv.invitedBy}</strong> : "Someone"} invited you to the workspace{" "}
              <strong>{inv.workspaceName}</strong> as <strong>{ROLE_NAMES[inv.role]}</strong>.
            </p>
            <p class="small-text">
              {inv.email ? `For ${inv.email}. ` : ""}The link works once, until {when(inv.expiresAt)}.
            </p>
            {failure !== null && <Notice kind="error">{deadWords(failure)}</Notice>}
            {signedIn ? (
              <>
                <p>
                  You are signed in as <strong>{signedIn.account?.email}</strong>.
                </p>
                {otherAddress && (
                  <Notice>
                    This invitation was sent to {inv.email}. Sign out, then sign in (or create an account) with that address to accept it.
                  </Notice>
                )}
                <div class="actions">
                  {!otherAddress && (
                    <button type="button" disabled={accepting} onClick={() => void accept()}>
                      {accepting ? "Joining…" : `Accept and join ${inv.workspaceName}`}
                    </button>
                  )}
                  <button type="button" class="secondary" onClick={() => void switchAccount()}>
                    Sign out to use another account
                  </button>
                </div>
                <p class="small-text">
                  <a href={href("workspaces")}>Not now: go to your workspaces</a>
                </p>
              </>
            ) : s ? (
              <>
                <p>You are signed in with a site admin key or as the operator. Sign out, then sign in with your own account to accept.</p>
                <button type="button" class="secondary" onClick={() => void switchAccount()}>
                  Sign out to use another account
                </button>
              </>
            ) : props.proof && inv.email ? (
              <NewAccountForInvite
                token={token}
                proof={props.proof}
                email={inv.email}
                workspaceName={inv.workspaceName}
                deadWords={(e) => (dead(e) ? deadWords(e) : null)}
              />
            ) : (
              <>
                <p>To accept, create your account or sign in. You come back to this invitation afterwards.</p>
                <div class="actions">
                  <a class="button" href={href("sign-up")} onClick={() => noteInvitedEmail(inv.email)}>
                    Create an account
                  </a>
                  <a class="button secondary" href={href("sign-in")}>
                    Sign in
                  </a>
                </div>
              </>
            )}
          </>
        )}
      </div>
    </main>
  );
}
