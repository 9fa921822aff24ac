/**
 * Inviting someone to the workspace (by email, or a link to share, shown once) and the
 * invitations still pending, each of which can be withdrawn.
 */
import { useState } from "preact/hooks";
import { call, client } from "../../api";
import { SelectField, TextField } from "../../form-fields";
import type { components } from "../../generated/api";
import { MAIL_NOTE, mailWords } from "../../invitation-mail-words";
import { Copy, ErrorNotice, Notice, when } from "../../ui";
import { useForm } from "../../use-form";
import { type Role, ROLE_NAME, ROLES } from "./roles";

type Invitation = components["schemas"]["ListInvitationsResponse"]["invitations"][number];

export function InviteForm(props: { id: string; onStart: () => void; onInvited: () => void }) {
  const id = props.id;
  const [link, setLink] = useState<{ url: string; words: string; state: Invitation["mailState"] } | null>(null);
  const invite = useForm(
    { email: "", role: "contributor" as Role },
    (v) =>
      call(
        client.POST("/workspaces/{id}/invitations", {
          params: { path: { id } },
          body: { role: v.role, ...(v.email.trim() ? { email: v.email.trim() } : {}) },
        }),
      ),
    {
      onSaved: (r) => {
        const state = r.invitation.mailState;
        setLink({ url: r.link, words: mailWords(state, r.invitation.email), state });
        invite.reset({ email: "", role: invite.values.role });
        props.onInvited();
      },
    },
  );
  return (
    <>
      {/* A new attempt starts clean: the link of the one before is not left under its outcome. */}
      <form class="form" onSubmit={(e) => (setLink(null), props.onStart(), invite.onSubmit(e))}>
        <h3>Invite someone</h3>
        <ErrorNotice error={invite.error} />
        <div class="row">
          <TextField form={invite} name="email" label="Email (leave empty for a link to share)" type="email" />
          <SelectField form={invite} name="role" label="Role" options={ROLES} />
        </div>
        <button type="submit" disabled={invite.pending}>
          Invite
        </button>
      </form>
      {link && link.state === "sent" && (
        // Mailed: the mail's link lets them choose a password at once; this one, for when the
        // mail goes astray, asks them to confirm their address first (it proves nothing about it).
        <Notice kind="ok">
          {link.words} The link in the mail works once, for 7 days. If the mail does not arrive, share this link instead (shown only now):{" "}
          <code tabIndex={0}>{link.url}</code> <Copy text={link.url} label="Copy the invitation link" />
        </Notice>
      )}
      {link && link.state !== "sent" && (
        <Notice kind={link.state === "none" ? "ok" : "info"}>
          Invitation made. {link.words} The link works once, for 7 days, and is shown only now: <code tabIndex={0}>{link.url}</code>{" "}
          <Copy text={link.url} label="Copy the invitation link" />
        </Notice>
      )}
    </>
  );
}

/** `withdraw` runs the change the way the members' other changes run (its outcome shown above them). */
export function PendingInvitations(props: {
  id: string;
  invitations: Invitation[] | null;
  withdraw: (request: () => Promise<unknown>) => void;
}) {
  const id = props.id;
  if ((props.invitations ?? []).length === 0) return null;
  return (
    <>
      <h3>Pending invitations</h3>
      <ul>
        {props.invitations!.map((i) => (
          <li key={i.id}>
            {i.email ?? "Shared link"} as {ROLE_NAME[i.role]}, until {when(i.expiresAt)}
            {i.email && ` (${MAIL_NOTE[i.mailState]})`}{" "}
            <button
              type="button"
              class="secondary small"
              onClick={() =>
                props.withdraw(() =>
                  call(client.DELETE("/workspaces/{id}/invitations/{invitationId}", { params: { path: { id, invitationId: i.id } } })),
                )
              }
            >
              Withdraw the invitation to {i.email ?? "the shared link"}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
