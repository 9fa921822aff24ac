import { useState } from "preact/hooks";
import { call, client } from "../api";
import { replacedKey, session, sessionEnded, signOut } from "../session";
import { can, inSite, site } from "../site-state";
import { RoleGate } from "../role-gate";
import { Confirm, Copy, ErrorNotice, Field, Heading, Notice } from "../ui";
import { useForm } from "../use-form";
import { LocalesSettings } from "./locales-settings";

const saveSite = (body: { name?: string; imageResizingHosts?: string[] }) =>
  call(client.PATCH("/sites/{siteId}", { params: { path: inSite() }, body })).then((r) => (site.value = r.site));

export function Settings() {
  const s = site.value!;
  const [error, setError] = useState<unknown>(null);
  const [rotating, setRotating] = useState(false);
  const [newKey, setNewKey] = useState<string | null>(null);
  const rename = useForm({ name: s.name }, ({ name }) => saveSite({ name }));
  const hosts = useForm(
    { hosts: s.imageResizingHosts.join(", ") },
    ({ hosts }) =>
      saveSite({
        imageResizingHosts: hosts
          .split(/[\s,]+/)
          .map((h) => h.trim())
          .filter(Boolean),
      }),
    {
      // The service tidies the list (lower case, no duplicates): show what it kept.
      onSaved: (saved) => {
        hosts.reset({ hosts: saved.imageResizingHosts.join(", ") });
      },
    },
  );
  const rotate = async () => {
    setError(null);
    try {
      const { adminKey } = await call(client.POST("/sites/{siteId}/admin-key", { params: { path: inSite() } }));
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
      <RoleGate permission="site.settings" what="the site's name, image hosts and languages">
        <form class="card form" onSubmit={rename.onSubmit}>
          <ErrorNotice error={rename.error} />
          <h2>Site</h2>
          <Field
            label="Site name"
            hint="Shown in this dashboard and, on SEO Engine, as the site name of rendered pages unless the capture sets one."
            error={rename.errors.name}
          >
            {(id, d) => (
              <input
                id={id}
                required
                maxLength={200}
                value={rename.values.name}
                aria-describedby={d}
                onInput={(e) => rename.set("name", e.currentTarget.value)}
              />
            )}
          </Field>
          <button type="submit" disabled={rename.pending}>
            Save name
          </button>
          {rename.saved && <Notice kind="ok">Saved.</Notice>}
        </form>
        <form class="card form" onSubmit={hosts.onSubmit}>
          <h2>Images</h2>
          <p>
            Pages show each image at its original address. If your images are on a Cloudflare zone with <strong>Image Resizing</strong> on,
            name its hostname here: images there are then offered in smaller widths too (<code>/cdn-cgi/image/…</code>), which load faster
            on phones. Anywhere else those addresses do not exist, and the images would break.
          </p>
          <ErrorNotice error={hosts.error} />
          <Field
            label="Image hosts with Cloudflare Image Resizing"
            hint="Hostnames, separated by commas (images.example.com). Leave empty if you are not sure."
            error={Object.values(hosts.errors)[0]}
          >
            {(id, d) => (
              <input id={id} value={hosts.values.hosts} aria-describedby={d} onInput={(e) => hosts.set("hosts", e.currentTarget.value)} />
            )}
          </Field>
          <button type="submit" disabled={hosts.pending}>
            Save image hosts
          </button>
          {hosts.saved && <Notice kind="ok">Saved. Published images follow at once.</Notice>}
        </form>
        <LocalesSettings />
      </RoleGate>
      <div class="card">
        <h2>Export</h2>
        <p>
          The whole site as one JSON file: collections and their fields, every item with its data and publish state, media details and SEO
          Engine settings. No keys or secrets are in it. Each collection's Items screen also exports that collection as CSV.
        </p>
        <a class="button secondary" href={`/sites/${encodeURIComponent(s.id)}/export.json`} download>
          Export site (JSON)
        </a>
      </div>
      {can("keys.manage") && (
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
      )}
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
