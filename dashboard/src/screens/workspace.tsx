/**
 * A workspace's people, keys and activity: Members (invite by email or link, change a role,
 * remove), API keys (create, shown once; revoke) and Activity (who did what, filters, CSV), and
 * for a member other than the Owner, leaving the workspace.
 * What a role cannot do is hidden: a section whose list the API refuses (403) says so instead of
 * showing controls. The API stays the authority.
 */
import { useState } from "preact/hooks";
import { ApiFailure, call, client } from "../api";
import { goSavedWith } from "../router";
import { refreshSession, session } from "../session";
import { DataTable } from "../data-table";
import { type Options, SelectField, TextField } from "../form-fields";
import { Copy, ErrorNotice, Field, Heading, Notice, when } from "../ui";
import { PLAN_NAMES } from "../types";
import { useForm } from "../use-form";
import { useLoad } from "../use-load";
import { revokedWords } from "../revoked-words";
import { MAIL_NOTE, mailWords } from "../invitation-mail-words";
import { operationWords, type SiteName, siteNames } from "../workspace-sites";

type Role = "administrator" | "editor" | "author" | "contributor" | "viewer";
const ROLES: [Role, string][] = [
  ["administrator", "Administrator"],
  ["editor", "Editor"],
  ["author", "Author"],
  ["contributor", "Contributor"],
  ["viewer", "Viewer"],
];
const ROLE_NAME: Record<string, string> = { owner: "Owner", ...Object.fromEntries(ROLES) };

/** "Every site" and each site of the workspace, for a site filter or limit. */
const siteOptions = (sites: readonly SiteName[]): Options => [["", "Every site"], ...sites.map((s) => [s.id, s.name] as const)];

const refused = (e: unknown) => e instanceof ApiFailure && e.status === 403;

export function Workspace(props: { workspaceId: string }) {
  const id = props.workspaceId;
  // Bumped after ownership moves: every section asks again what the caller may do now.
  const [round, setRound] = useState(0);
  const [moved, setMoved] = useState<string | null>(null);
  // Bumped after a change made on this screen (a role, a removal, a key): Activity shows it at once.
  const [changes, setChanges] = useState(0);
  const changed = () => setChanges((n) => n + 1);
  const read = useLoad(async () => {
    const r = await call(client.GET("/workspaces/{id}", { params: { path: { id } } }));
    return { ...r, sites: await siteNames(r.workspace.siteIds) };
  }, [id, round]);
  const sites = read.data?.sites ?? [];
  const ws = { data: read.data?.workspace ?? null, error: read.error };
  const perms = read.data?.access.permissions ?? [];
  // What the caller's role may not see is not asked for (the workspace says which, first): a
  // section it would be refused says so instead.
  const mayReadMembers = perms.includes("members.read");
  // One list of members for the table and the Owner's choices: a change in one shows in the other.
  const members = useLoad(
    () =>
      mayReadMembers
        ? call(client.GET("/workspaces/{id}/members", { params: { path: { id } } })).then((r) => r.members)
        : Promise.resolve(null),
    [id, round, mayReadMembers],
  );
  return (
    <section>
      <Heading>{ws.data ? `Workspace: ${ws.data.name}` : "Workspace"}</Heading>
      <ErrorNotice error={ws.error} />
      {ws.data && (
        <p class="muted">
          Plan: {PLAN_NAMES[ws.data.plan]}. Sites:{" "}
          {sites.map((s, i) => (
            <span key={s.id}>
              {i > 0 && ", "}
              <a href={`#/${s.id}/overview`}>{s.name}</a>
            </span>
          ))}
        </p>
      )}
      {moved && <Notice kind="ok">{moved}</Notice>}
      {read.data &&
        (mayReadMembers ? (
          <Members key={`m${round}`} id={id} members={members} onChanged={changed} />
        ) : (
          <NotForRole title="Members" text="Your role cannot see or manage members." />
        ))}
      {read.data &&
        (perms.includes("keys.manage") ? (
          <ApiKeys key={`k${round}`} id={id} sites={sites} changes={changes} onChanged={changed} />
        ) : (
          <NotForRole title="API keys" text="Your role cannot manage API keys." />
        ))}
      {read.data &&
        (perms.includes("audit.read") ? (
          <Activity key={`a${round}`} id={id} sites={sites} changes={changes} />
        ) : (
          <NotForRole title="Activity" text="Your role cannot see the workspace's activity." />
        ))}
      {ws.data && (perms.includes("ownership.transfer") || perms.includes("workspace.delete")) && (
        <OwnerZone
          key={`o${round}`}
          id={id}
          name={ws.data.name}
          mayTransfer={perms.includes("ownership.transfer")}
          mayDelete={perms.includes("workspace.delete")}
          members={members.data ?? []}
          onMoved={(message) => {
            setMoved(message);
            void refreshSession().then(() => setRound((n) => n + 1));
          }}
        />
      )}
      {ws.data && read.data && <Leave id={id} name={ws.data.name} role={read.data.access.role} siteCount={ws.data.siteIds.length} />}
    </section>
  );
}

function NotForRole(props: { title: string; text: string }) {
  return (
    <div class="card">
      <h2>{props.title}</h2>
      <p class="muted">{props.text}</p>
    </div>
  );
}

type MemberList = ReturnType<typeof useLoad<{ accountId: string; email: string; role: string }[]>>;

function Members(props: { id: string; members: MemberList; onChanged: () => void }) {
  const id = props.id;
  const members = props.members;
  const [done, setDone] = useState<string | null>(null);
  const invites = useLoad(
    () => call(client.GET("/workspaces/{id}/invitations", { params: { path: { id } } })).then((r) => r.invitations),
    [id],
  );
  const [link, setLink] = useState<{ url: string; mailed: string; unmailed: boolean } | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
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
        setLink({ url: r.link, mailed: mailWords(state, r.invitation.email), unmailed: state !== "sent" && state !== "none" });
        invite.reset({ email: "", role: invite.values.role });
        invites.reload();
        props.onChanged();
      },
    },
  );
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
    <div class="card">
      <h2>Members</h2>
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
            <th scope="row">{m.email}</th>
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
      {/* A new attempt starts clean: the link of the one before is not left under its outcome. */}
      <form class="form" onSubmit={(e) => (setLink(null), setDone(null), invite.onSubmit(e))}>
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
      {link && (
        <Notice kind={link.unmailed ? "info" : "ok"}>
          Invitation made. {link.mailed} The link works once, for 7 days, and is shown only now: <code tabIndex={0}>{link.url}</code>{" "}
          <Copy text={link.url} label="Copy the invitation link" />
        </Notice>
      )}
      {(invites.data ?? []).length > 0 && (
        <>
          <h3>Pending invitations</h3>
          <ul>
            {invites.data!.map((i) => (
              <li key={i.id}>
                {i.email ?? "Shared link"} as {ROLE_NAME[i.role]}, until {when(i.expiresAt)}
                {i.email && ` (${MAIL_NOTE[i.mailState]})`}{" "}
                <button
                  type="button"
                  class="secondary small"
                  onClick={() =>
                    void act(() =>
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
      )}
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

/**
 * The keys, read again after every change on this screen (`changes`): removing or demoting a
 * member revokes the keys they made, and the list must not offer those as live.
 */
function ApiKeys(props: { id: string; sites: SiteName[]; changes: number; onChanged: () => void }) {
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
    <div class="card">
      <h2>API keys</h2>
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

function Activity(props: { id: string; sites: SiteName[]; changes: number }) {
  const id = props.id;
  const [filter, setFilter] = useState({ actor: "", siteId: "", kind: "" });
  const [before, setBefore] = useState<string | null>(null);
  const query = {
    ...(filter.actor ? { actor: filter.actor } : {}),
    ...(filter.siteId ? { siteId: filter.siteId } : {}),
    ...(filter.kind ? { kind: filter.kind } : {}),
  };
  const page = useLoad(
    () =>
      call(
        client.GET("/workspaces/{id}/audit", {
          params: { path: { id }, query: { ...query, ...(before ? { before } : {}), limit: 50 } },
        }),
      ),
    [id, filter.actor, filter.siteId, filter.kind, before, props.changes],
  );
  if (refused(page.error))
    return (
      <div class="card">
        <h2>Activity</h2>
        <p class="muted">Your role cannot see the workspace's activity.</p>
      </div>
    );
  const csv = `/workspaces/${encodeURIComponent(id)}/audit.csv?${new URLSearchParams(query).toString()}`;
  return (
    <div class="card">
      <h2>Activity</h2>
      <div class="row">
        <Field label="Person (email or key name)">
          {(fid) => (
            <input
              id={fid}
              value={filter.actor}
              onChange={(e) => (setBefore(null), setFilter({ ...filter, actor: e.currentTarget.value.trim() }))}
            />
          )}
        </Field>
        <Field label="Site">
          {(fid) => (
            <select
              id={fid}
              value={filter.siteId}
              onChange={(e) => (setBefore(null), setFilter({ ...filter, siteId: e.currentTarget.value }))}
            >
              {siteOptions(props.sites).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Kind">
          {(fid) => (
            <select id={fid} value={filter.kind} onChange={(e) => (setBefore(null), setFilter({ ...filter, kind: e.currentTarget.value }))}>
              <option value="">Every kind</option>
              {["Items", "Media", "Collections", "Members", "Keys", "Sites", "SEO", "Domains", "Search", "Workspaces"].map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <p>
        <a class="button secondary" href={csv} download>
          Download CSV
        </a>
      </p>
      <ErrorNotice error={page.error} />
      <DataTable
        label="Activity"
        columns={["When", "Who", "What", "Target"]}
        rows={page.data?.entries ?? null}
        error={page.error}
        loading="Loading activity…"
        empty={
          query.actor || query.siteId || query.kind
            ? "Nothing matches these filters. Clear a filter to see more."
            : "No activity yet. Changes to content, people and keys show here, with who made them."
        }
        row={(e) => (
          <tr key={e.id}>
            <td>{when(e.at)}</td>
            <td>{e.actor.label}</td>
            <td>{operationWords(e.operation)}</td>
            <td>{e.target}</td>
          </tr>
        )}
      />
      {page.data?.next && (
        <button type="button" class="secondary" onClick={() => setBefore(page.data!.next)}>
          Older activity
        </button>
      )}
    </div>
  );
}

/** What only the Owner does: hand the workspace to another member, and delete it (confirmed by typing its name). */
function OwnerZone(props: {
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

/**
 * Leaving: any member but the Owner removes themselves (the API allows it without the
 * members.manage permission), then lands on their workspaces. The Owner hands ownership over first.
 */
function Leave(props: { id: string; name: string; role: string; siteCount: number }) {
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
