import { useEffect, useRef, useState } from "preact/hooks";
import { ApiFailure, call, client } from "../api";
import { autofillAvailable, cancelPasskeyRequest, passkeysUnavailable, usePasskey } from "../passkeys";
import { go, href } from "../router";
import { refreshSession, replacedKey } from "../session";
import { Copy, explain, Field, Notice } from "../ui";
import { useForm } from "../use-form";

/** After any sign-in: the cookie now signs requests; the shell picks the first screen. */
async function signedIn(): Promise<void> {
  replacedKey.value = null;
  await refreshSession();
  if (!location.hash || /^#\/(sign-in|sign-up|forgot)?$/.test(location.hash)) go();
}

/** A passkey sign-in: options, the browser's answer, the session (the same as a password's). */
async function passkeySignIn(autofill: boolean): Promise<void> {
  const { options } = await call(client.POST("/sessions/passkey/options"));
  const response = await usePasskey(options, autofill);
  await call(client.POST("/sessions/passkey", { body: { response } }));
}

export function SignIn(props: { ended: boolean; newKey?: string | null }) {
  const unavailable = passkeysUnavailable();
  const passkey = useForm({}, () => passkeySignIn(false), { onSaved: signedIn });
  const [autofillError, setAutofillError] = useState<unknown>(null);
  // Conditional UI: once the email field is focused, the browser offers this site's passkeys among
  // its suggestions. Waiting costs nothing; the button (or leaving the screen) ends the wait.
  // Started on focus, not on load, so a browser that answers at once (an automated one) does not
  // sign in before the person has chosen how.
  const autofill = useRef<"idle" | "waiting" | "done">("idle");
  const offerAutofill = async () => {
    if (autofill.current !== "idle" || unavailable || !(await autofillAvailable())) return;
    autofill.current = "waiting";
    try {
      await passkeySignIn(true);
      if (autofill.current === "waiting") await signedIn();
    } catch (err) {
      // Ended by the button or by leaving: nothing to say. The service's refusal is shown, once.
      if (autofill.current === "waiting" && err instanceof ApiFailure && err.status !== 0) {
        autofill.current = "done";
        setAutofillError(err);
      }
    } finally {
      if (autofill.current === "waiting") autofill.current = "idle";
    }
  };
  useEffect(
    () => () => {
      if (autofill.current === "waiting") void cancelPasskeyRequest();
      autofill.current = "done";
    },
    [],
  );
  const account = useForm({ email: "", password: "" }, (body) => call(client.POST("/sessions", { body })), {
    onSaved: async () => {
      account.reset({ email: "", password: "" });
      await signedIn();
    },
  });
  const form = useForm({ key: "" }, ({ key }) => call(client.POST("/sessions", { body: { key } })), {
    onSaved: async () => {
      form.reset({ key: "" });
      // The key is not kept anywhere: from here on the HttpOnly session cookie signs requests.
      await signedIn();
    },
  });
  // The key form has one field: whatever went wrong is said at it.
  const error = form.errors.key ?? form.failure;
  return (
    <main class="sign-in">
      <form onSubmit={account.onSubmit} class="card">
        <h1 id="sign-in-title" tabIndex={-1}>
          Sign in to your content dashboard
        </h1>
        {props.newKey ? (
          <>
            <Notice kind="ok">
              Your admin key was replaced and every session has ended, this one too.{" "}
              <strong>Copy the new key now: it is shown only once.</strong>
            </Notice>
            <p class="token">
              <code tabIndex={0}>{props.newKey}</code> <Copy text={props.newKey} label="Copy new admin key" />
            </p>
          </>
        ) : (
          props.ended && <Notice>Your session has ended. Sign in again to continue.</Notice>
        )}
        {account.failure && <Notice kind="error">{account.failure}</Notice>}
        <Field label="Email" error={account.errors.email}>
          {(id, d) => (
            <input
              id={id}
              type="email"
              autoComplete="username webauthn"
              required
              value={account.values.email}
              onFocus={() => void offerAutofill()}
              aria-describedby={d}
              onInput={(e) => account.set("email", e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Password" error={account.errors.password}>
          {(id, d) => (
            <input
              id={id}
              type="password"
              autoComplete="current-password"
              required
              value={account.values.password}
              aria-describedby={d}
              onInput={(e) => account.set("password", e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={account.pending}>
          {account.pending ? "Signing in…" : "Sign in"}
        </button>
        <div class="passkey-sign-in">
          {unavailable ? (
            <p class="small-text">{unavailable}</p>
          ) : (
            <>
              {(passkey.failure || autofillError) && <Notice kind="error">{passkey.failure ?? explain(autofillError)}</Notice>}
              <button
                type="button"
                class="secondary"
                disabled={passkey.pending}
                onClick={() => {
                  setAutofillError(null);
                  // The button's request replaces a pending autofill one (the library aborts it).
                  if (autofill.current === "waiting") autofill.current = "idle";
                  void passkey.submit();
                }}
              >
                {passkey.pending ? "Waiting for your passkey…" : "Sign in with a passkey"}
              </button>
            </>
          )}
        </div>
        <p class="small-text">
          <a href={href("forgot")}>Forgot your password?</a> · New here? <a href={href("sign-up")}>Create an account</a>
        </p>
      </form>
      <form onSubmit={form.onSubmit} class="card">
        <h2 id="key-title">Sign in with an admin key</h2>
        <p>
          Use your site's <strong>admin key</strong> (it starts with <code>sk_</code> and was shown when the site was created), or the
          operator token.
        </p>
        <Field label="Admin key" error={error ?? undefined}>
          {(id, describedBy) => (
            <input
              id={id}
              type="password"
              autoComplete="off"
              required
              value={form.values.key}
              aria-describedby={describedBy}
              aria-invalid={error ? true : undefined}
              onInput={(e) => form.set("key", e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" class="secondary" disabled={form.pending}>
          {form.pending ? "Signing in…" : "Sign in with admin key"}
        </button>
      </form>
    </main>
  );
}
