import { call, client } from "../../api";
import { SelectField, TextField } from "../../form-fields";
import { goSavedWith } from "../../router";
import { refreshSession } from "../../session";
import { ErrorNotice } from "../../ui";
import { useForm } from "../../use-form";
import { ROLE_NAME } from "./roles";

/** What only the Owner does: hand the workspace to another member, and delete it (confirmed by typing its name). */
export function OwnerZone(props: {
  id: string;
  name: string;
  mayTransfer: boolean;
  mayDelete: boolean;
  members: { accountId: string; email: string; role: string }[];
  onMoved: (message: string) => void;
}) {
  const id = props.id;
  const others = props.members.filter((m) => m.role !== "owner");
  const transfer = useForm(
    { accountId: "" },
    (v) => call(client.POST("/workspaces/{id}/owner", { params: { path: { id } }, body: { accountId: v.accountId } })),
    {
      onSaved: (r) =>
        props.onMoved(
          `${r.owner.email} is now the Owner; ${r.previous ? `${r.previous.email} is an Administrator` : "there was none before"}.`,
        ),
    },
  );
  const remove = useForm(
    { confirm: "" },
    (v) => call(client.DELETE("/workspaces/{id}", { params: { path: { id } }, body: { confirm: v.confirm } })),
    {
      onSaved: async () => {
        await refreshSession();
        goSavedWith(`The workspace “${props.name}” and its sites were deleted.`, "workspaces");
      },
    },
  );
  return (
    <div class="card danger-zone">
      <h2>Owner only</h2>
      {props.mayTransfer && (
        <form
          class="form"
          onSubmit={(e) => {
            e.preventDefault();
            const person = others.find((m) => m.accountId === transfer.values.accountId);
            if (!person) return;
            if (!window.confirm(`Make ${person.email} the Owner of ${props.name}? The Owner before becomes an Administrator.`)) return;
            void transfer.submit();
          }}
        >
          <h3>Transfer ownership</h3>
          <p class="muted">
            The workspace has exactly one Owner, who alone can delete it. The Owner before becomes an Administrator (and can then leave the
            workspace).
          </p>
          <ErrorNotice error={transfer.error} />
          {others.length === 0 ? (
            <p>Invite the person first: only a member can become the Owner.</p>
          ) : (
            <>
              <SelectField
                form={transfer}
                name="accountId"
                label="New owner"
                options={[["", "Choose a member"], ...others.map((m) => [m.accountId, `${m.email} (${ROLE_NAME[m.role]})`] as const)]}
              />
              <button type="submit" class="secondary" disabled={!transfer.values.accountId || transfer.pending}>
                Transfer ownership
              </button>
            </>
          )}
        </form>
      )}
      {props.mayDelete && (
        <form class="form" onSubmit={remove.onSubmit}>
          <h3>Delete this workspace</h3>
          <p>
            Deletes every site of the workspace with all its content, ends everyone's access and stops its invitations and API keys.{" "}
            <strong>This cannot be undone.</strong>
          </p>
          <ErrorNotice error={remove.error} />
          <TextField form={remove} name="confirm" label={`Type “${props.name}” to confirm`} autoComplete="off" />
          <button type="submit" class="danger" disabled={remove.values.confirm !== props.name || remove.pending}>
            {remove.pending ? "Deleting…" : "Delete workspace"}
          </button>
        </form>
      )}
    </div>
  );
}
