import { call, client } from "../api";
import { refreshSession, replacedKey } from "../session";
import { Copy, Field, Notice } from "../ui";
import { useForm } from "../use-form";

export function SignIn(props: { ended: boolean; newKey?: string | null }) {
  const form = useForm({ key: "" }, ({ key }) => call(client.POST("/sessions", { body: { key } })), {
    onSaved: async () => {
      form.reset({ key: "" });
      replacedKey.value = null;
      // The key is not kept anywhere: from here on the HttpOnly session cookie signs requests.
      await refreshSession();
      if (!location.hash) location.hash = "#/";
    },
  });
  // Sign-in has one field: whatever went wrong is said at it.
  const error = form.errors.key ?? form.failure;
  return (
    <main class="sign-in">
      <form onSubmit={form.onSubmit} class="card">
        <h1>Sign in to your content dashboard</h1>
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
        <p>
          Use your site's <strong>admin key</strong> (it starts with <code>sk_</code> and was shown when the site was created), or the
          operator token.
        </p>
        <Field label="Admin key" error={error ?? undefined}>
          {(id, describedBy) => (
            <input
              id={id}
              type="password"
              autoComplete="current-password"
              required
              value={form.values.key}
              aria-describedby={describedBy}
              aria-invalid={error ? true : undefined}
              onInput={(e) => form.set("key", e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={form.pending}>
          {form.pending ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
