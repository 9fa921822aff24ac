import { call, client } from "../api";
import { go, href } from "../router";
import { refreshSession, replacedKey } from "../session";
import { Copy, Field, Notice } from "../ui";
import { useForm } from "../use-form";

/** After any sign-in: the cookie now signs requests; the shell picks the first screen. */
async function signedIn(): Promise<void> {
  replacedKey.value = null;
  await refreshSession();
  if (!location.hash || /^#\/(sign-in|sign-up|forgot)?$/.test(location.hash)) go();
}

export function SignIn(props: { ended: boolean; newKey?: string | null }) {
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
              autoComplete="username"
              required
              value={account.values.email}
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
