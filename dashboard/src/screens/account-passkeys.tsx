/**
 * Account → Passkeys: add one (this device or a security key), rename, remove, and when each was
 * last used. Adding one needs a recent sign-in: when the API asks (403 `sign_in_again`), the form
 * asks for the password, or a passkey sign-in for an account without one, and tries again.
 */
import { useState } from "preact/hooks";
import { ApiFailure, call, client } from "../api";
import { makePasskey, passkeysUnavailable, usePasskey } from "../passkeys";
import { DataTable } from "../data-table";
import { TextField } from "../form-fields";
import { Confirm, ErrorNotice, Notice, when } from "../ui";
import { useForm } from "../use-form";
import { useLoad } from "../use-load";

interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

function RenameForm(props: { passkey: Passkey; done: (renamed: boolean) => void }) {
  const form = useForm(
    { name: props.passkey.name },
    (v) =>
      call(client.PATCH("/account/passkeys/{passkeyId}", { params: { path: { passkeyId: props.passkey.id } }, body: { name: v.name } })),
    { onSaved: () => props.done(true) },
  );
  return (
    <form onSubmit={form.onSubmit} class="inline-form">
      {form.failure && <Notice kind="error">{form.failure}</Notice>}
      <TextField form={form} name="name" label={`New name for “${props.passkey.name}”`} required maxLength={100} />
      <div class="actions">
        <button type="submit" class="small" disabled={form.pending}>
          {form.pending ? "Saving…" : "Save name"}
        </button>
        <button type="button" class="secondary small" onClick={() => props.done(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** What the API said when adding a passkey needs the person to confirm it is them (null: it did not). */
function confirmAsked(err: unknown): { hasPassword: boolean } | null {
  if (!(err instanceof ApiFailure) || err.error.code !== "forbidden") return null;
  const d = err.error.details;
  if (d?.["reason"] !== "sign_in_again" && d?.["reason"] !== "wrong_password") return null;
  return { hasPassword: d["hasPassword"] !== false };
}

/** A passkey sign-in in place: a new session, signed in now, for a change that needs a recent one. */
async function signInAgainWithPasskey(): Promise<void> {
  const { options } = await call(client.POST("/sessions/passkey/options"));
  const response = await usePasskey(options);
  await call(client.POST("/sessions/passkey", { body: { response } }));
}

export function PasskeysPanel() {
  const unavailable = passkeysUnavailable();
  const list = useLoad(() => call(client.GET("/account/passkeys")), []);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [removeError, setRemoveError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // Set once the API asked for a recent sign-in: the form then asks for the password (or a passkey sign-in).
  const [confirming, setConfirming] = useState<{ hasPassword: boolean } | null>(null);
  const add = useForm(
    { name: "", password: "" },
    async (v) => {
      const body = confirming?.hasPassword && v.password ? { password: v.password } : {};
      const { options } = await call(client.POST("/account/passkeys/options", { body }));
      const response = await makePasskey(options);
      return (await call(client.POST("/account/passkeys", { body: { response, ...(v.name.trim() ? { name: v.name.trim() } : {}) } })))
        .passkey;
    },
    {
      failed: (err) => {
        const asked = confirmAsked(err);
        if (asked) setConfirming(asked);
        return false;
      },
      onSaved: (made) => {
        add.reset({ name: "", password: "" });
        setConfirming(null);
        setNotice(`Passkey “${made.name}” added. You can now sign in with it.`);
        list.reload();
      },
    },
  );
  const again = useForm({}, signInAgainWithPasskey, {
    onSaved: async () => {
      // Signed in just now: the same request needs nothing more.
      setConfirming(null);
      await add.submit();
    },
  });
  const remove = async (p: Passkey) => {
    setRemoveError(null);
    setNotice(null);
    try {
      await call(client.DELETE("/account/passkeys/{passkeyId}", { params: { path: { passkeyId: p.id } } }));
      setNotice(`Passkey “${p.name}” removed.`);
      list.reload();
    } catch (err) {
      setRemoveError(err);
    }
  };
  return (
    <section class="card" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <p>Sign in with this device's fingerprint, face or screen lock, or a security key, instead of typing your password.</p>
      {notice && <Notice kind="ok">{notice}</Notice>}
      <ErrorNotice error={removeError ?? list.error} />
      <DataTable
        label="Passkeys"
        columns={["Name", "Added", "Last used", { hidden: "Actions" }]}
        rows={list.data?.passkeys ?? null}
        error={list.error}
        loading="Loading passkeys…"
        empty="No passkeys yet. Add one below to sign in without typing your password."
        row={(p) => (
          <tr key={p.id}>
            <td>
              {renaming === p.id ? (
                <RenameForm
                  passkey={p}
                  done={(renamed) => {
                    setRenaming(null);
                    if (renamed) list.reload();
                  }}
                />
              ) : (
                p.name
              )}
            </td>
            <td>{when(p.createdAt)}</td>
            <td>{p.lastUsedAt ? when(p.lastUsedAt) : "Never"}</td>
            <td class="actions">
              <button type="button" class="secondary small" aria-label={`Rename passkey ${p.name}`} onClick={() => setRenaming(p.id)}>
                Rename
              </button>
              <button type="button" class="danger small" aria-label={`Remove passkey ${p.name}`} onClick={() => setRemoving(p)}>
                Remove
              </button>
            </td>
          </tr>
        )}
      />
      {unavailable ? (
        <Notice>{unavailable}</Notice>
      ) : (
        <form onSubmit={add.onSubmit} class="add-passkey">
          {add.failure && <Notice kind="error">{add.failure}</Notice>}
          {again.failure && <Notice kind="error">{again.failure}</Notice>}
          <TextField
            form={add}
            name="name"
            label="Name for the new passkey (optional)"
            hint="So you can tell them apart, such as “Work laptop” or “Blue security key”."
            maxLength={100}
          />
          {confirming?.hasPassword && (
            <TextField
              form={add}
              name="password"
              label="Your password"
              hint="You signed in a while ago: to keep anyone who got hold of this browser from adding a passkey of their own, confirm it is you."
              type="password"
              autoComplete="current-password"
              required
            />
          )}
          <div class="actions">
            <button type="submit" disabled={add.pending || again.pending || (confirming !== null && !confirming.hasPassword)}>
              {add.pending ? "Waiting for your device…" : confirming?.hasPassword ? "Confirm and add the passkey" : "Add a passkey"}
            </button>
            {confirming && (list.data?.passkeys.length ?? 0) > 0 && (
              <button type="button" class="secondary" disabled={add.pending || again.pending} onClick={() => void again.submit()}>
                {again.pending ? "Waiting for your passkey…" : "Sign in again with a passkey"}
              </button>
            )}
          </div>
        </form>
      )}
      <Confirm
        open={removing !== null}
        title={`Remove passkey “${removing?.name ?? ""}”?`}
        confirmLabel="Remove passkey"
        danger
        onClose={(yes) => {
          const p = removing;
          setRemoving(null);
          if (yes && p) void remove(p);
        }}
      >
        <p>You will no longer be able to sign in with it. The passkey stays on the device until you delete it there too.</p>
      </Confirm>
    </section>
  );
}
