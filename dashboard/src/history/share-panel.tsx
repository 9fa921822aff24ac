/**
 * An item's share links: create one (expiry, optional password, optional number of opens, a label),
 * see its URL once with Copy, list the links with how often each was opened, revoke one. Loaded
 * lazily with the editor's Share button.
 */
import { useEffect, useId, useState } from "preact/hooks";
import { call, client } from "../api";
import { inSite } from "../site-state";
import type { Collection, Item } from "../types";
import { useForm } from "../use-form";
import { Copy, ErrorNotice, Field, Notice, useModal } from "../ui";
import { showInZone, viewerZone } from "../time-zone";
import type { components } from "../generated/api";

type Link = components["schemas"]["ListPreviewLinksResponse"]["links"][number];

const HOUR = 3600;
const EXPIRY: [number, string][] = [
  [HOUR, "1 hour"],
  [24 * HOUR, "1 day"],
  [7 * 24 * HOUR, "7 days"],
  [30 * 24 * HOUR, "30 days"],
];
const STATE_WORDS: Record<Link["state"], string> = { live: "Works", expired: "Expired", revoked: "Revoked", "used up": "Used up" };

interface Values {
  expiresIn: string;
  password: string;
  maxOpens: string;
  label: string;
}

export function SharePanel(props: { open: boolean; collection: Collection; item: Item; onClose: () => void }) {
  const { collection: c, item } = props;
  const ref = useModal(props.open);
  const titleId = useId();
  const [links, setLinks] = useState<Link[] | null>(null);
  const [created, setCreated] = useState<{ url: string; label: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const zone = viewerZone();
  const path = inSite({ slug: c.slug, id: item.id });

  const load = async () => {
    try {
      setLinks((await call(client.GET("/sites/{siteId}/collections/{slug}/items/{id}/preview-links", { params: { path } }))).links);
    } catch (err) {
      setError(err);
    }
  };
  useEffect(() => {
    if (props.open) {
      setCreated(null);
      void load();
    }
  }, [props.open]);

  const form = useForm<Values, { url: string; label: string }>(
    { expiresIn: String(7 * 24 * HOUR), password: "", maxOpens: "", label: "" },
    async (v) => {
      const r = await call(
        client.POST("/sites/{siteId}/collections/{slug}/items/{id}/preview-links", {
          params: { path },
          body: {
            expiresIn: Number(v.expiresIn),
            ...(v.password ? { password: v.password } : {}),
            ...(v.maxOpens ? { maxOpens: Number(v.maxOpens) } : {}),
            ...(v.label.trim() ? { label: v.label.trim() } : {}),
          },
        }),
      );
      return { url: r.url, label: r.link.label };
    },
    {
      onSaved: async (r) => {
        setCreated(r);
        form.reset({ expiresIn: String(7 * 24 * HOUR), password: "", maxOpens: "", label: "" });
        await load();
      },
    },
  );

  const revoke = async (link: Link) => {
    setError(null);
    try {
      await call(
        client.DELETE("/sites/{siteId}/collections/{slug}/items/{id}/preview-links/{linkId}", {
          params: { path: { ...path, linkId: link.id } },
        }),
      );
      await load();
    } catch (err) {
      setError(err);
    }
  };
  const close = () => {
    ref.current?.close();
    props.onClose();
  };
  const nameOf = (l: Link) => l.label || `link made ${showInZone(l.createdAt, zone)}`;

  return (
    <dialog ref={ref} class="share" aria-labelledby={titleId} onCancel={props.onClose} onClose={props.onClose}>
      <h2 id={titleId}>Share a preview</h2>
      <p>
        Anyone with the link sees this item as it is now{item.status === "published" ? ", with its pending changes," : ""} without signing
        in. Search engines do not index it. Times in your time zone, {zone}.
      </p>
      <form onSubmit={form.onSubmit} class="share-form">
        {form.failure && <Notice kind="error">{form.failure}</Notice>}
        <Field label="Works for" error={form.errors.expiresIn}>
          {(id) => (
            <select id={id} value={form.values.expiresIn} onChange={(e) => form.set("expiresIn", e.currentTarget.value)}>
              {EXPIRY.map(([s, words]) => (
                <option key={s} value={String(s)}>
                  {words}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Password (optional)" hint="8 characters or more. Send it separately from the link." error={form.errors.password}>
          {(id, d) => (
            <input
              id={id}
              type="password"
              autocomplete="new-password"
              aria-describedby={d}
              value={form.values.password}
              onInput={(e) => form.set("password", e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Number of opens allowed (optional)" hint="Leave empty for no limit." error={form.errors.maxOpens}>
          {(id, d) => (
            <input
              id={id}
              type="number"
              min={1}
              max={10000}
              aria-describedby={d}
              value={form.values.maxOpens}
              onInput={(e) => form.set("maxOpens", e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label="Who it is for (optional)" error={form.errors.label}>
          {(id) => <input id={id} maxLength={100} value={form.values.label} onInput={(e) => form.set("label", e.currentTarget.value)} />}
        </Field>
        <div class="actions">
          <button type="submit" disabled={form.pending}>
            {form.pending ? "Creating…" : "Create share link"}
          </button>
        </div>
      </form>
      {created && (
        <Notice kind="ok">
          <p>Copy the link now: it is shown only this once.</p>
          <p class="muted">
            Its secret part follows the #: browsers never send it to a server, so it stays out of every request log. Links made before this
            form carried it in the address itself; they keep working until they expire (30 days at most). To replace one, revoke it and
            share again.
          </p>
          <div class="share-url">
            <label for={`${titleId}-url`}>Share link</label>
            <input id={`${titleId}-url`} readOnly value={created.url} onFocus={(e) => e.currentTarget.select()} />
            <Copy text={created.url} label="Copy share link" />
          </div>
        </Notice>
      )}
      <ErrorNotice error={error} />
      <h3>Links of this item</h3>
      {links === null ? (
        <p class="muted">Loading the links…</p>
      ) : links.length === 0 ? (
        <p class="muted">No share links yet.</p>
      ) : (
        <table class="share-links">
          <thead>
            <tr>
              <th scope="col">For</th>
              <th scope="col">State</th>
              <th scope="col">Opens</th>
              <th scope="col">Expires</th>
              <th scope="col">Password</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {links.map((l) => (
              <tr key={l.id}>
                <td>{l.label || <span class="muted">(no label)</span>}</td>
                <td>{STATE_WORDS[l.state]}</td>
                <td>{l.maxOpens === null ? l.opens : `${l.opens} of ${l.maxOpens}`}</td>
                <td>{showInZone(l.expiresAt, zone)}</td>
                <td>{l.hasPassword ? "Yes" : "No"}</td>
                <td>
                  {l.state === "live" && (
                    <button type="button" class="secondary small" aria-label={`Revoke ${nameOf(l)}`} onClick={() => void revoke(l)}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="actions">
        <button type="button" class="secondary" onClick={close}>
          Close sharing
        </button>
      </div>
    </dialog>
  );
}
