import { useState } from "preact/hooks";
import { api, ApiFailure } from "../api";
import { refreshSession, replacedKey } from "../session";
import { Copy, Field, Notice, type Submit } from "../ui";

export function SignIn(props: { ended: boolean; newKey?: string | null }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Submit) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api("POST", "/sessions", { key });
      setKey("");
      replacedKey.value = null;
      // The key is not kept anywhere: from here on the HttpOnly session cookie signs requests.
      await refreshSession();
      if (!location.hash) location.hash = "#/";
    } catch (err) {
      setError(err instanceof ApiFailure ? err.error.message : "The service could not be reached.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <form onSubmit={submit} class="card">
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
              value={key}
              aria-describedby={describedBy}
              aria-invalid={error ? true : undefined}
              onInput={(e) => setKey(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
