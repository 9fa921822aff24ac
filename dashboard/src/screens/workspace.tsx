/**
 * A workspace's people, keys and activity: Members (invite by email or link, change a role,
 * remove), API keys (create, shown once; revoke) and Activity (who did what, filters, CSV), and
 * for a member other than the Owner, leaving the workspace. Each section is a file of workspace/.
 * What a role cannot do is hidden: a section whose list the API refuses (403) says so instead of
 * showing controls. The API stays the authority.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { call, client } from "../api";
import { refreshSession } from "../session";
import { ErrorNotice, Heading, Notice } from "../ui";
import { PLAN_NAMES } from "../types";
import { useLoad } from "../use-load";
import { siteNames } from "../workspace-sites";
import { Activity } from "./workspace/activity";
import { ApiKeys } from "./workspace/api-keys";
import { Leave } from "./workspace/leave";
import { Members } from "./workspace/members";
import { OwnerZone } from "./workspace/owner-zone";

/** `section` (`members`, `keys`): the part of the page an address names, as Activity links to it. */
export function Workspace(props: { workspaceId: string; section?: string | undefined }) {
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
  useSection(props.section, members.data !== null || members.error !== null);
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

/**
 * Brings the section an address names into view and gives its heading the focus, once it is on
 * the page (its list arrives after the workspace's access), and once per address.
 */
function useSection(section: string | undefined, ready: boolean): void {
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (!section || !ready || shown.current === section) return;
    const heading = document.querySelector<HTMLElement>(`#${CSS.escape(section)} h2`);
    if (!heading) return;
    shown.current = section;
    heading.scrollIntoView({ block: "start" });
    heading.focus();
  });
}
