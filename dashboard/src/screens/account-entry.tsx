/**
 * The account screens a person sees before they are signed in: create an account, "check your
 * inbox", confirm the address (choose a password, or a passkey instead), forgot and reset password. Mailed links carry
 * their secret in the address's fragment (`#/verify/<token>`), which the page sends in a body.
 */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { makePasskey, passkeysUnavailable } from "../passkeys";
import { go, goSavedWith, href } from "../router";
import { refreshSession } from "../session";
import { TextField } from "../form-fields";
import { Notice } from "../ui";
import { useForm } from "../use-form";
import { invitedEmail, pendingInvite } from "../pending-invite";

export const PASSWORD_HINT = "At least 10 characters. A few unrelated words are easy to remember and hard to guess.";

function CheckInbox(props: { email: string; what: string }) {
  return (
    <main class="sign-in">
      <div class="card">
        <h1 tabIndex={-1}>Check your inbox</h1>
        <Notice kind="ok">
          If <strong>{props.email}</strong> can receive mail, a link to {props.what} is on its way.
        </Notice>
        <p>
          Open it from your inbox on this device. It works for a limited time; if nothing arrives in a few minutes, check your spam folder
          or try again.
        </p>
        <p>
          <a href={href("sign-in")}>Back to sign-in</a>
        </p>
      </div>
    </main>
  );
}

export function CreateAccount() {
  const [sent, setSent] = useState<string | null>(null);
  const form = useForm(
    { name: "", email: invitedEmail ?? "" },
    async (v) => (await call(client.POST("/accounts", { body: { email: v.email, ...(v.name ? { name: v.name } : {}) } })), v.email),
    { onSaved: (email: string) => setSent(email) },
  );
  if (sent) return <CheckInbox email={sent} what="confirm your address and choose a password" />;
  return (
    <main class="sign-in">
      <form onSubmit={form.onSubmit} class="card">
        <h1 tabIndex={-1}>Create an account</h1>
        <p>We send a link to your address; you choose your password when you open it.</p>
        {form.failure && <Notice kind="error">{form.failure}</Notice>}
        <TextField form={form} name="name" label="Your name" autoComplete="name" />
        <TextField form={form} name="email" label="Email" type="email" autoComplete="email" required />
        <button type="submit" disabled={form.pending}>
          {form.pending ? "Sending…" : "Send me the link"}
        </button>
        <p class="small-text">
          Already have an account? <a href={href("sign-in")}>Sign in</a>
        </p>
      </form>
    </main>
  );
}

function NewPassword<R>(props: {
  title: string;
  intro: string;
  button: string;
  save: (password: string) => Promise<R>;
  again: [string, string];
  /** Another way to finish, below the form (sign-up: a passkey instead of a password). */
  instead?: ComponentChildren;
  /** What the screen it lands on says first (the person's workspaces), from the answer. */
  done?: (saved: R) => string;
}) {
  const form = useForm(
    { password: "", confirm: "" },
    async (v) => {
      if (v.password !== v.confirm) throw new Mismatch();
      return props.save(v.password);
    },
    {
      failed: (err) => err instanceof Mismatch && (setMismatch(true), true),
      onSaved: async (saved) => {
        await refreshSession();
        // A pending invitation (or a site's session) goes where the dashboard's start sends it.
        if (props.done && !pendingInvite()) goSavedWith(props.done(saved), "workspaces");
        else go();
      },
    },
  );
  const [mismatch, setMismatch] = useState(false);
  return (
    <main class="sign-in">
      <form onSubmit={(e) => (setMismatch(false), form.onSubmit(e))} class="card">
        <h1 tabIndex={-1}>{props.title}</h1>
        <p>{props.intro}</p>
        {form.failure && (
          <Notice kind="error">
            {form.failure} {/* A link that no longer works needs a new one; a field's problem is fixed in place. */}
            {Object.keys(form.errors).length === 0 && <a href={href(props.again[0])}>{props.again[1]}</a>}
          </Notice>
        )}
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
        <button type="submit" disabled={form.pending}>
          {form.pending ? "Saving…" : props.button}
        </button>
        {props.instead}
      </form>
    </main>
  );
}

class Mismatch extends Error {}

/** Sign-up with a passkey instead of a password: the link's token proves the address. */
function PasskeyInstead(props: { token: string }) {
  const unavailable = passkeysUnavailable();
  const form = useForm(
    {},
    async () => {
      const { token } = props;
      const { options } = await call(client.POST("/accounts/verify/passkey/options", { body: { token } }));
      const response = await makePasskey(options);
      return call(client.POST("/accounts/verify/passkey", { body: { token, response } }));
    },
    {
      onSaved: async () => {
        await refreshSession();
        // Where a new account lands, whichever way it signed up.
        go();
      },
    },
  );
  if (unavailable) return <p class="small-text">{unavailable}</p>;
  return (
    <div class="passkey-sign-in">
      <p class="small-text">Or skip the password: sign in with this device's fingerprint, face or screen lock, or a security key.</p>
      {form.failure && <Notice kind="error">{form.failure}</Notice>}
      <button type="button" class="secondary" disabled={form.pending} onClick={() => void form.submit()}>
        {form.pending ? "Waiting for your passkey…" : "Use a passkey instead"}
      </button>
    </div>
  );
}

export function Verify(props: { token: string }) {
  return (
    <NewPassword
      title="Choose your password"
      intro="Your address is confirmed by this link. Choose a password to finish creating your account."
      button="Create account"
      again={["sign-up", "Sign up again"]}
      save={(password) => call(client.POST("/accounts/verify", { body: { token: props.token, password } }))}
      instead={<PasskeyInstead token={props.token} />}
    />
  );
}

export function Reset(props: { token: string }) {
  return (
    <NewPassword
      title="Choose a new password"
      intro="Setting a new password signs you out on every other device and removes your passkeys, so that only you keep a way in. Add the passkeys you use again afterwards."
      button="Save new password"
      again={["forgot", "Ask for a new link"]}
      save={(password) => call(client.POST("/account/password-reset/confirm", { body: { token: props.token, password } }))}
      done={(r) =>
        `Password changed. You are signed in here with the new one; every other device was signed out.${
          r.passkeysRemoved > 0
            ? ` ${r.passkeysRemoved === 1 ? "Your passkey was" : `Your ${r.passkeysRemoved} passkeys were`} removed too: add the ones you use again under Account → Passkeys.`
            : ""
        }`
      }
    />
  );
}

export function Forgot() {
  const [sent, setSent] = useState<string | null>(null);
  const form = useForm({ email: "" }, async (body) => (await call(client.POST("/account/password-reset", { body })), body.email), {
    onSaved: (email) => setSent(email),
  });
  if (sent) return <CheckInbox email={sent} what="choose a new password" />;
  return (
    <main class="sign-in">
      <form onSubmit={form.onSubmit} class="card">
        <h1 tabIndex={-1}>Forgot your password?</h1>
        <p>We send a link to choose a new one. It works once, for one hour.</p>
        {form.failure && <Notice kind="error">{form.failure}</Notice>}
        <TextField form={form} name="email" label="Email" type="email" autoComplete="email" required />
        <button type="submit" disabled={form.pending}>
          {form.pending ? "Sending…" : "Send me a reset link"}
        </button>
        <p class="small-text">
          <a href={href("sign-in")}>Back to sign-in</a>
        </p>
      </form>
    </main>
  );
}
