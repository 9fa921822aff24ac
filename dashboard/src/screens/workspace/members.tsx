/**
 * The workspace's members: their roles (changed with RoleChoice), removing one, and the
 * invitations (invitations.tsx). Every change is followed by reading the lists again.
 */
import { useState } from "preact/hooks";
import { call, client } from "../../api";
import { DataTable } from "../../data-table";
import { revokedWords } from "../../revoked-words";
import { ErrorNotice, Notice } from "../../ui";
import { useLoad } from "../../use-load";
import { InviteForm, PendingInvitations } from "./invitations";
import { type Role, ROLE_NAME, ROLES, refused } from "./roles";

export type MemberList = ReturnType<typeof useLoad<{ accountId: string; email: string; name: string; role: string }[]>>;

export function Members(props: { id: string; members: MemberList; onChanged: () => void }) {
  const id = props.id;
  const members = props.members;
  const [done, setDone] = useState<string | null>(null);
  const invites = useLoad(
    () => call(client.GET("/workspaces/{id}/invitations", { params: { path: { id } } })).then((r) => r.invitations),
    [id],
  );
  const [failure, setFailure] = useState<unknown>(null);
  if (refused(members.error))
    return (
      <div class="card">
        <h2>Members</h2>
        <p class="muted">Your role cannot see or manage members.</p>
      </div>
    );
  /** Runs one change; `message` (what happened, in words, from its answer) is shown when it succeeded. */
  const act = async <T,>(p: () => Promise<T>, message?: (answer: T) => string) => {
    setFailure(null);
    setDone(null);
    try {
      const answer = await p();
      if (message) setDone(message(answer));
    } catch (e) {
      setFailure(e);
    }
    members.reload();
    invites.reload();
    props.onChanged();
  };
  return (
    <div class="card" id="members">
      <h2 tabIndex={-1}>Members</h2>
      <ErrorNotice error={members.error ?? failure} />
      {done && <Notice kind="ok">{done}</Notice>}
      <DataTable
        label="Members"
        columns={["Person", "Role", { hidden: "Actions" }]}
        rows={members.data}
        error={members.error}
        loading="Loading members…"
        empty="No members yet."
        row={(m) => (
          <tr key={m.accountId}>
            <th scope="row">
              {m.name ? (
                <>
                  {m.name}
                  <br />
                  <span class="muted small-text">{m.email}</span>
                </>
              ) : (
                m.email
              )}
            </th>
            <td>
              {m.role === "owner" ? (
                "Owner"
              ) : (
                // Keyed by the saved role: once saved (or refused and reloaded) the choice starts from it again.
                <RoleChoice
                  key={m.role}
                  email={m.email}
                  role={m.role as Role}
                  onChange={(role) =>
                    void act(
                      () =>
                        call(
                          client.PATCH("/workspaces/{id}/members/{accountId}", {
                            params: { path: { id, accountId: m.accountId } },
                            body: { role },
                          }),
                        ),
                      (r) => `${m.email} is now ${ROLE_NAME[role]}.${revokedWords(r.revoked)}`,
                    )
                  }
                />
              )}
            </td>
            <td>
              {m.role !== "owner" && (
                <button
                  type="button"
                  class="secondary small"
                  onClick={() => {
                    if (
                      window.confirm(
                        `Remove ${m.email} from this workspace? Their next click is refused, and so is every API key they made; their pending invitations are withdrawn.`,
                      )
                    )
                      void act(
                        () =>
                          call(client.DELETE("/workspaces/{id}/members/{accountId}", { params: { path: { id, accountId: m.accountId } } })),
                        (r) => `${m.email} was removed from this workspace.${revokedWords(r.revoked)}`,
                      );
                  }}
                >
                  Remove {m.email}
                </button>
              )}
            </td>
          </tr>
        )}
      />
      <InviteForm
        id={id}
        onStart={() => setDone(null)}
        onInvited={() => {
          invites.reload();
          props.onChanged();
        }}
      />
      <PendingInvitations id={id} invitations={invites.data} withdraw={(request) => void act(request)} />
    </div>
  );
}

/**
 * A member's role: choosing one in the list changes nothing yet; "Change role" saves it, so a
 * slip of the list cannot make someone an Administrator.
 */
function RoleChoice(props: { email: string; role: Role; onChange: (role: Role) => void }) {
  const [chosen, setChosen] = useState<Role>(props.role);
  return (
    <span class="role-choice">
      <select aria-label={`Role of ${props.email}`} value={chosen} onChange={(e) => setChosen(e.currentTarget.value as Role)}>
        {ROLES.map(([r, label]) => (
          <option key={r} value={r}>
            {label}
          </option>
        ))}
      </select>{" "}
      {chosen !== props.role && (
        <>
          <button
            type="button"
            class="small"
            aria-label={`Change role of ${props.email} to ${ROLE_NAME[chosen]}`}
            onClick={() => props.onChange(chosen)}
          >
            Change role
          </button>{" "}
          <button
            type="button"
            class="secondary small"
            aria-label={`Keep ${props.email} as ${ROLE_NAME[props.role]}`}
            onClick={() => setChosen(props.role)}
          >
            Cancel
          </button>
        </>
      )}
    </span>
  );
}
