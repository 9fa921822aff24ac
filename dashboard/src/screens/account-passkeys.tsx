/** Account → Passkeys: add one (this device or a security key), rename, remove, and when each was last used. */
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { makePasskey, passkeysUnavailable } from "../passkeys";
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

export function PasskeysPanel() {
  const unavailable = passkeysUnavailable();
  const list = useLoad(() => call(client.GET("/account/passkeys")), []);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [removeError, setRemoveError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const add = useForm(
    { name: "" },
    async (v) => {
      const { options } = await call(client.POST("/account/passkeys/options"));
      const response = await makePasskey(options);
      return (await call(client.POST("/account/passkeys", { body: { response, ...(v.name.trim() ? { name: v.name.trim() } : {}) } })))
        .passkey;
    },
    {
      onSaved: (made) => {
        add.reset({ name: "" });
        setNotice(`Passkey “${made.name}” added. You can now sign in with it.`);
        list.reload();
      },
    },
  );
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
          <TextField
            form={add}
            name="name"
            label="Name for the new passkey (optional)"
            hint="So you can tell them apart, such as “Work laptop” or “Blue security key”."
            maxLength={100}
          />
          <button type="submit" disabled={add.pending}>
            {add.pending ? "Waiting for your device…" : "Add a passkey"}
          </button>
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
