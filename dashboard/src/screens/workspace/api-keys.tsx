/** The workspace's API keys: the list (revoke), and a new key, shown once. */
import { useState } from "preact/hooks";
import { call, client } from "../../api";
import { DataTable } from "../../data-table";
import { SelectField, TextField } from "../../form-fields";
import { Copy, ErrorNotice, Notice, when } from "../../ui";
import { useForm } from "../../use-form";
import { useLoad } from "../../use-load";
import type { SiteName } from "../../workspace-sites";
import { refused, siteOptions } from "./roles";

/**
 * The keys, read again after every change on this screen (`changes`): removing or demoting a
 * member revokes the keys they made, and the list must not offer those as live.
 */
export function ApiKeys(props: { id: string; sites: SiteName[]; changes: number; onChanged: () => void }) {
  const id = props.id;
  const keys = useLoad(
    () => call(client.GET("/workspaces/{id}/api-keys", { params: { path: { id } } })).then((r) => r.apiKeys),
    [id, props.changes],
  );
  const [shown, setShown] = useState<string | null>(null);
  const [revoked, setRevoked] = useState<{ message: string | null; error: unknown }>({ message: null, error: null });
  const revoke = async (key: { id: string; name: string }) => {
    if (!window.confirm(`Revoke the key “${key.name}”? Scripts and build steps that use it stop working at once. This cannot be undone.`))
      return;
    setRevoked({ message: null, error: null });
    try {
      await call(client.DELETE("/workspaces/{id}/api-keys/{keyId}", { params: { path: { id, keyId: key.id } } }));
      setRevoked({ message: `The key “${key.name}” is revoked: requests that send it are refused.`, error: null });
    } catch (error) {
      setRevoked({ message: null, error });
    }
    props.onChanged();
  };
  const create = useForm(
    { name: "", scope: "read" as "read" | "full", siteId: "" },
    (v) =>
      call(
        client.POST("/workspaces/{id}/api-keys", {
          params: { path: { id } },
          body: { name: v.name, scope: v.scope, siteId: v.siteId || null },
        }),
      ),
    {
      onSaved: (r) => {
        setShown(r.apiKey.key);
        create.reset({ name: "", scope: "read", siteId: "" });
        props.onChanged();
      },
    },
  );
  if (refused(keys.error))
    return (
      <div class="card">
        <h2>API keys</h2>
        <p class="muted">Your role cannot manage API keys.</p>
      </div>
    );
  return (
    <div class="card" id="keys">
      <h2 tabIndex={-1}>API keys</h2>
      <p class="muted">
        For scripts: send the key as Authorization: Bearer. Read keys read; full keys change content but never people or keys.
      </p>
      <ErrorNotice error={keys.error ?? revoked.error} />
      {revoked.message && <Notice kind="ok">{revoked.message}</Notice>}
      <DataTable
        label="API keys"
        columns={["Name", "Scope", "Site", "Last used", { hidden: "Actions" }]}
        rows={keys.data}
        error={keys.error}
        loading="Loading API keys…"
        empty="No API keys yet. Create one below for a script or a build step that reads or changes content."
        row={(k) => (
          <tr key={k.id}>
            <th scope="row">{k.name}</th>
            <td>{k.scope === "full" ? "Full" : "Read only"}</td>
            <td>{k.siteId ? (props.sites.find((s) => s.id === k.siteId)?.name ?? k.siteId) : "Every site"}</td>
            <td>{k.lastUsedAt ? when(k.lastUsedAt) : "Never"}</td>
            <td>
              {k.revokedAt ? (
                "Revoked"
              ) : (
                <button type="button" class="secondary small" onClick={() => void revoke(k)}>
                  Revoke {k.name}
                </button>
              )}
            </td>
          </tr>
        )}
      />
      <form class="form" onSubmit={(e) => (setShown(null), setRevoked({ message: null, error: null }), create.onSubmit(e))}>
        <h3>New API key</h3>
        <ErrorNotice error={create.error} />
        <div class="row">
          <TextField form={create} name="name" label="Key name" required maxLength={100} />
          <SelectField
            form={create}
            name="scope"
            label="Scope"
            options={[
              ["read", "Read only"],
              ["full", "Full dashboard API"],
            ]}
          />
          <SelectField form={create} name="siteId" label="Limit to site" options={siteOptions(props.sites)} />
        </div>
        <button type="submit" disabled={create.pending}>
          Create key
        </button>
      </form>
      {shown && (
        <Notice kind="ok">
          <strong>Copy the key now: it is shown only once.</strong> <code tabIndex={0}>{shown}</code>{" "}
          <Copy text={shown} label="Copy the new API key" />
        </Notice>
      )}
    </div>
  );
}
