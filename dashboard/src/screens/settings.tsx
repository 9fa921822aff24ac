import { useState } from "preact/hooks";
import { api, ApiFailure } from "../api";
import { replacedKey, session, sessionEnded, signOut } from "../session";
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
  const [hosts, setHosts] = useState(s.imageResizingHosts.join(", "));
  const [hostsSaved, setHostsSaved] = useState(false);
  const [hostsError, setHostsError] = useState<unknown>(null);
  const saveHosts = async (e: Submit) => {
    e.preventDefault();
    setHostsError(null);
    setHostsSaved(false);
    const list = hosts
      .split(/[\s,]+/)
      .map((h) => h.trim())
      .filter(Boolean);
    try {
      site.value = (await api<{ site: Site }>("PATCH", sitePath(), { imageResizingHosts: list })).site;
      setHosts(site.value.imageResizingHosts.join(", "));
      setHostsSaved(true);
    } catch (err) {
      setHostsError(err);
    }
  };

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
      if (session.value?.kind === "site") {
        // The rotation ended this session too: nothing of the site stays on screen. The sign-in
        // screen shows the new key once, from this page's memory.
        replacedKey.value = adminKey;
        sessionEnded();
        return;
      }
      setNewKey(adminKey);
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
      <form class="card form" onSubmit={saveHosts}>
        <h2>Images</h2>
        <p>
          Pages show each image at its original address. If your images are on a Cloudflare zone with <strong>Image Resizing</strong> on,
          name its hostname here: images there are then offered in smaller widths too (<code>/cdn-cgi/image/…</code>), which load faster on
          phones. Anywhere else those addresses do not exist, and the images would break.
        </p>
        <ErrorNotice error={hostsError} />
        <Field
          label="Image hosts with Cloudflare Image Resizing"
          hint="Hostnames, separated by commas (images.example.com). Leave empty if you are not sure."
          error={hostsError instanceof ApiFailure ? Object.values(hostsError.fieldErrors)[0] : undefined}
        >
          {(id, d) => <input id={id} value={hosts} aria-describedby={d} onInput={(e) => setHosts(e.currentTarget.value)} />}
        </Field>
        <button type="submit">Save image hosts</button>
        {hostsSaved && <Notice kind="ok">Saved. Published images follow at once.</Notice>}
      </form>
      <div class="card">
        <h2>Admin key</h2>
        {newKey ? (
          <>
            <Notice kind="ok">
              The site's new admin key is below. <strong>Copy it now: it is shown only once.</strong> The old key and every session signed
              in with it have stopped working.
            </Notice>
            <p class="token">
              <code tabIndex={0}>{newKey}</code> <Copy text={newKey} label="Copy new admin key" />
            </p>
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
        <p>
          The current key stops working at once, and everyone signed in with it is signed out
          {session.value?.kind === "site" ? ", including you: the sign-in screen then shows the new key once" : ""}.
        </p>
      </Confirm>
    </section>
  );
}
