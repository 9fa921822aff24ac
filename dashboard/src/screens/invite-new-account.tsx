/**
 * Accepting a mailed invitation without an account: the mail's link carries a proof of the
 * address (`#/invite/<token>/<proof>`), so the person chooses a name and a password here and is
 * signed in and in the workspace in one step, with no confirmation mail
 * (`POST /invitations/accept/new-account`), or makes a passkey instead of a password. Someone who
 * already has an account signs in instead.
 */
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { makePasskey, passkeysUnavailable } from "../passkeys";
import { TextField } from "../form-fields";
import { forgetInvite } from "../pending-invite";
import { goSavedWith, href } from "../router";
import { refreshSession } from "../session";
import { ROLE_NAMES } from "../site-state";
import { Notice } from "../ui";
import { useForm } from "../use-form";
import { PASSWORD_HINT } from "./account-entry";

class Mismatch extends Error {}

type Joined = { membership: { workspaceName: string; role: string } };

async function joined({ membership }: Joined): Promise<void> {
  forgetInvite();
  await refreshSession();
  goSavedWith(`You joined ${membership.workspaceName} as ${ROLE_NAMES[membership.role]}.`, "workspaces");
}

/** A passkey instead of a password: the same proof makes the account, with the name typed above. */
function PasskeyInstead(props: { token: string; proof: string; name: string; deadWords: (e: unknown) => string | null }) {
  const unavailable = passkeysUnavailable();
  const form = useForm(
    {},
    async () => {
      const invitation = { token: props.token, proof: props.proof };
      const { options } = await call(client.POST("/invitations/accept/new-account/passkey/options", { body: invitation }));
      const response = await makePasskey(options);
      const name = props.name.trim();
      return call(client.POST("/invitations/accept/new-account/passkey", { body: { ...invitation, response, ...(name ? { name } : {}) } }));
    },
    { onSaved: joined },
  );
  if (unavailable) return <p class="small-text">{unavailable}</p>;
  const dead = form.error === null ? null : props.deadWords(form.error);
  return (
    <div class="passkey-sign-in">
      <p class="small-text">Or skip the password: use this device's fingerprint, face or screen lock, or a security key.</p>
      {form.failure && <Notice kind="error">{dead ?? form.failure}</Notice>}
      <button type="button" class="secondary" disabled={form.pending} onClick={() => void form.submit()}>
        {form.pending ? "Waiting for your passkey…" : "Use a passkey instead"}
      </button>
    </div>
  );
}

export function NewAccountForInvite(props: {
  token: string;
  proof: string;
  email: string;
  workspaceName: string;
  /** The failure in words when the invitation can no longer be used (the screen's own wording). */
  deadWords: (e: unknown) => string | null;
}) {
  const [mismatch, setMismatch] = useState(false);
  const form = useForm(
    { name: "", password: "", confirm: "" },
    async (v) => {
      if (v.password !== v.confirm) throw new Mismatch();
      const name = v.name.trim();
      return call(
        client.POST("/invitations/accept/new-account", {
          body: { token: props.token, proof: props.proof, password: v.password, ...(name ? { name } : {}) },
        }),
      );
    },
    { failed: (err) => err instanceof Mismatch && (setMismatch(true), true), onSaved: joined },
  );
  const dead = form.error === null ? null : props.deadWords(form.error);
  return (
    <form class="form" onSubmit={(e) => (setMismatch(false), form.onSubmit(e))}>
      <h2>Create your account</h2>
      <p>The invitation mail confirmed your address, so there is nothing else to confirm: choose a password to join now.</p>
      {/* Password managers save the new password under the invited address. */}
      <input type="email" name="username" autoComplete="username" value={props.email} readOnly hidden />
      {form.failure && (
        <Notice kind="error">
          {dead ?? form.failure} {form.error !== null && Object.keys(form.errors).length === 0 && <a href={href("sign-in")}>Sign in</a>}
        </Notice>
      )}
      <TextField form={form} name="name" label="Your name" autoComplete="name" hint="As your colleagues will see it." />
      <TextField
        form={form}
        name="password"
        label="New password"
        hint={PASSWORD_HINT}
        type="password"
        autoComplete="new-password"
        required
      />
      <TextField
        form={form}
        name="confirm"
        label="Repeat the password"
        error={mismatch ? "The two passwords differ; type the same one twice." : undefined}
        type="password"
        autoComplete="new-password"
        required
      />
      <div class="actions">
        <button type="submit" disabled={form.pending}>
          {form.pending ? "Joining…" : `Create account and join ${props.workspaceName}`}
        </button>
      </div>
      <PasskeyInstead token={props.token} proof={props.proof} name={form.values.name} deadWords={props.deadWords} />
      <p class="small-text">
        Already have an account with this address? <a href={href("sign-in")}>Sign in</a> and you come back here to accept.
      </p>
    </form>
  );
}
