import { call, client } from "../../api";
import { goSavedWith } from "../../router";
import { refreshSession, session } from "../../session";
import { ErrorNotice } from "../../ui";
import { useForm } from "../../use-form";

/**
 * Leaving: any member but the Owner removes themselves (the API allows it without the
 * members.manage permission), then lands on their workspaces. The Owner hands ownership over first.
 */
export function Leave(props: { id: string; name: string; role: string; siteCount: number }) {
  const me = session.value?.kind === "account" ? session.value.account : undefined;
  const leave = useForm(
    {},
    () => call(client.DELETE("/workspaces/{id}/members/{accountId}", { params: { path: { id: props.id, accountId: me!.id } } })),
    {
      onSaved: async () => {
        await refreshSession();
        goSavedWith(`You left “${props.name}”. To come back, ask someone who manages its members to invite you again.`, "workspaces");
      },
    },
  );
  // The operator, a site's admin key and an API key are not members; the Owner cannot leave.
  if (!me || props.role === "owner" || props.role === "operator" || props.role.startsWith("key:")) return null;
  const sites = props.siteCount === 1 ? "its site" : `its ${props.siteCount} sites`;
  return (
    <div class="card">
      <h2>Leave this workspace</h2>
      <p>
        You lose access to {props.siteCount === 0 ? "it" : sites} at once, and the API keys and pending invitations you made stop working.
        To come back, someone who manages its members must invite you again.
      </p>
      <ErrorNotice error={leave.error} />
      <button
        type="button"
        class="secondary"
        disabled={leave.pending}
        onClick={() => {
          if (
            window.confirm(
              `Leave “${props.name}”? You lose access to ${props.siteCount === 0 ? "it" : sites} at once; to come back, someone who manages its members must invite you again. API keys and invitations you made stop working.`,
            )
          )
            void leave.submit();
        }}
      >
        {leave.pending ? "Leaving…" : "Leave workspace"}
      </button>
    </div>
  );
}
