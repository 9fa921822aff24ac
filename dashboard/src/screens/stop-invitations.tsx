/**
 * The page the "Stop invitation mails" link of an invitation mail opens
 * (`#/stop-invitations/<token>`, the secret in the fragment). No sign-in: one button records that
 * invitations are not to be mailed to this address, and another undoes it. The link does not do it
 * by itself on opening, because mail scanners open links too.
 */
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { href } from "../router";
import { ErrorNotice, Notice } from "../ui";

export function StopInvitations(props: { token: string }) {
  const [stopped, setStopped] = useState<boolean | null>(null);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const choose = async (stop: boolean) => {
    setPending(true);
    setFailure(null);
    try {
      setStopped((await call(client.POST("/invitations/stop-mail", { body: { token: props.token, stop } }))).stopped);
    } catch (e) {
      setFailure(e);
    } finally {
      setPending(false);
    }
  };
  return (
    <main class="sign-in">
      <div class="card">
        <h1 tabIndex={-1}>Invitation mails</h1>
        <ErrorNotice error={failure} />
        {stopped === true ? (
          <>
            <Notice kind="ok">
              Done. Invitations to this address are no longer mailed; whoever invites it is told only that it was not mailed.
            </Notice>
            <button type="button" class="secondary" disabled={pending} onClick={() => void choose(false)}>
              Undo: mail invitations to this address again
            </button>
          </>
        ) : (
          <>
            {stopped === false && <Notice kind="ok">Invitations to this address are mailed again.</Notice>}
            <p>
              Someone invited this address to a workspace. If it was not meant for you, or you want no more of these mails, stop them here:
              no invitation to this address will be mailed again (an invitation you were sent still does nothing unless you accept it).
            </p>
            <button type="button" disabled={pending} onClick={() => void choose(true)}>
              {pending ? "Saving…" : "Stop invitation mails to this address"}
            </button>
          </>
        )}
        <p class="small-text">
          <a href={href()}>Go to the dashboard</a>
        </p>
      </div>
    </main>
  );
}
