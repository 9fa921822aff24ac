import { useState } from "preact/hooks";
import { api } from "../api";
import { refreshSession, session, signOut } from "../session";
import { site, sitePath } from "../site-state";
import type { Site } from "../types";
import { Confirm, Copy, ErrorNotice, Field, Heading, Notice, type Submit } from "../ui";

export function Settings() {
  const s = site.value!;
  const [name, setName] = useState(s.name);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [rotating, setRotating] = useState(false);
  const [newKey, setNewKey] = useState<string | null>(null);

  const rename = async (e: Submit) => {
    e.preventDefault();
    setError(null);
    setSaved(false);
    try {
      site.value = (await api<{ site: Site }>("PATCH", sitePath(), { name })).site;
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  };
  const rotate = async () => {
    setError(null);
    try {
      const { adminKey } = await api<{ adminKey: string }>("POST", sitePath("admin-key"));
      setNewKey(adminKey);
    } catch (err) {
      setError(err);
    }
  };
  const signInAgain = async () => {
    // The rotation ended this session too; the new key, held only in this page's memory, starts a new one.
    try {
      await api("POST", "/sessions", { key: newKey });
      setNewKey(null);
      await refreshSession();
    } catch (err) {
      setError(err);
    }
  };

  return (
    <section>
      <Heading>Settings</Heading>
      <ErrorNotice error={error} />
      <form class="card form" onSubmit={rename}>
        <h2>Site</h2>
        <Field
          label="Site name"
          hint="Shown in this dashboard and, on SEO Engine, as the site name of rendered pages unless the capture sets one."
        >
          {(id, d) => (
            <input id={id} required maxLength={200} value={name} aria-describedby={d} onInput={(e) => setName(e.currentTarget.value)} />
          )}
        </Field>
        <button type="submit">Save name</button>
        {saved && <Notice kind="ok">Saved.</Notice>}
      </form>
      <div class="card">
        <h2>Admin key</h2>
        {newKey ? (
          <>
            <Notice kind="ok">
              Your new admin key is below. <strong>Copy it now: it is shown only once.</strong> The old key and every signed-in session have
              stopped working{session.value?.kind === "site" ? ", including this one" : ""}.
            </Notice>
            <p class="token">
              <code>{newKey}</code> <Copy text={newKey} label="Copy new admin key" />
            </p>
            {session.value?.kind === "site" && (
              <button type="button" onClick={() => void signInAgain()}>
                I have saved it: sign in with the new key
              </button>
            )}
          </>
        ) : (
          <>
            <p>If your admin key may have leaked, replace it. Scripts and people using the old key will need the new one.</p>
            <button type="button" class="danger" onClick={() => setRotating(true)}>
              Replace admin key
            </button>
          </>
        )}
      </div>
      <div class="card">
        <h2>Session</h2>
        <p>Sessions end after 12 hours without use, and 7 days after sign-in at the latest.</p>
        <button type="button" class="secondary" onClick={() => void signOut()}>
          Sign out
        </button>
      </div>
      <Confirm
        open={rotating}
        title="Replace the admin key?"
        confirmLabel="Replace key"
        danger
        onClose={(ok) => {
          setRotating(false);
          if (ok) void rotate();
        }}
      >
        <p>The current key stops working at once, and everyone signed in with it is signed out. The new key is shown once.</p>
      </Confirm>
    </section>
  );
}
