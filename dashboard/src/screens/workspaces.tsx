/**
 * Where a person signed in with their account starts: the workspaces they belong to, each with its
 * sites and their role, to open any of them without signing in again (the address, `#/workspaces`,
 * survives a reload and Back). A new account has none yet: it creates its workspace (Free plan)
 * and its first site here, and lands in that site. A member who may create sites (site.create)
 * adds one to a workspace here, up to its plan's number of sites.
 */
import { call, client } from "../api";
import { goSavedWith, href, takeFlash } from "../router";
import { refreshSession, session } from "../session";
import { ROLE_NAMES } from "../site-state";
import { PLAN_NAMES, type Plan } from "../types";
import { PLAN_LIMITS } from "../../../src/contract/plans";
import { TextField } from "../form-fields";
import { ErrorNotice, explain, Heading, Notice } from "../ui";
import { useForm } from "../use-form";
import { useLoad } from "../use-load";
import { siteNames } from "../workspace-sites";
import { useEffect, useRef, useState } from "preact/hooks";

type Membership = NonNullable<NonNullable<typeof session.value>["memberships"]>[number];

export function Workspaces() {
  const memberships = session.value?.memberships ?? [];
  const [flash] = useState(takeFlash);
  // What this tab read at sign-in may be out of date (a workspace deleted or a removal made in
  // another tab): the list waits for the session read again, so no card asks for a workspace that
  // is gone (a 404 in the console and an error on the card).
  const [fresh, setFresh] = useState(false);
  useEffect(() => void refreshSession().then(() => setFresh(true)), []);
  if (!fresh)
    return (
      <section>
        <Heading>Workspaces</Heading>
        <p class="loading">Loading…</p>
      </section>
    );
  return (
    <section>
      <Heading>{memberships.length ? "Your workspaces" : "Welcome: set up your workspace"}</Heading>
      {flash && <Notice kind="ok">{flash}</Notice>}
      {memberships.length === 0 && (
        <p>A workspace holds your sites and the people who work on them. You are its Owner; invite colleagues from it once it exists.</p>
      )}
      {memberships.map((m) => (
        <WorkspaceCard key={m.workspaceId} membership={m} />
      ))}
      <NewWorkspace first={memberships.length === 0} />
    </section>
  );
}

function WorkspaceCard(props: { membership: Membership }) {
  const m = props.membership;
  const id = m.workspaceId;
  // The workspace lists the sites this person may see; each site says its own name.
  const read = useLoad(async () => {
    const { workspace, access } = await call(client.GET("/workspaces/{id}", { params: { path: { id } } }));
    return { sites: await siteNames(workspace.siteIds), plan: workspace.plan, mayCreate: access.permissions.includes("site.create") };
  }, [id]);
  const sites = { data: read.data?.sites ?? null, error: read.error };
  const titleId = `ws-${id}`;
  return (
    <section class="card" aria-labelledby={titleId}>
      <h2 id={titleId}>{m.workspaceName || id}</h2>
      <p class="muted">
        Your role: {ROLE_NAMES[m.role]}
        {m.siteIds ? ` (on ${m.siteIds.length} of its sites)` : ""}.{" "}
        <a href={href("workspace", id)}>People and activity of {m.workspaceName || id}</a>
      </p>
      <ErrorNotice error={sites.error} />
      {sites.data === null && !sites.error && <p class="loading">Loading sites…</p>}
      {sites.data && sites.data.length === 0 && (
        <p>{m.role === "owner" || m.role === "administrator" ? "No site yet." : "No site you can open yet."}</p>
      )}
      {sites.data && sites.data.length > 0 && (
        <ul class="site-list">
          {sites.data.map((s) => (
            <li key={s.id}>
              <a href={href(s.id, "overview")}>Open {s.name}</a>
            </li>
          ))}
        </ul>
      )}
      {read.data?.mayCreate && (
        <NewSite workspaceId={id} workspaceName={m.workspaceName || id} plan={read.data.plan} count={read.data.sites.length} />
      )}
    </section>
  );
}

/**
 * A new site in this workspace: the form at once when it has none, behind "New site" when it has
 * some. At the plan's number of sites it says so instead (the API refuses the same, in words).
 */
function NewSite(props: { workspaceId: string; workspaceName: string; plan: Plan; count: number }) {
  // Shown at once for the first site; asked for with "New site" (then its field has the focus) after.
  const [open, setOpen] = useState<"first" | "asked" | null>(props.count === 0 ? "first" : null);
  const box = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (open === "asked") box.current?.querySelector("input")?.focus();
  }, [open]);
  const form = useForm(
    { name: "" },
    (v) => call(client.POST("/sites", { body: { name: v.name.trim(), workspaceId: props.workspaceId } })).then((r) => r.site),
    { onSaved: (site) => goSavedWith(`Site “${site.name}” created.`, site.id, "overview") },
  );
  const max = PLAN_LIMITS[props.plan].sites;
  const plan = PLAN_NAMES[props.plan];
  if (props.count >= max)
    return (
      <p class="muted">
        The {plan} plan allows {max === 1 ? "1 site" : `${max} sites`}, and this workspace has {props.count}. For another site, ask the team
        that runs this service to change the plan.
      </p>
    );
  if (!open)
    return (
      <button type="button" class="secondary" aria-label={`New site in ${props.workspaceName}`} onClick={() => setOpen("asked")}>
        New site
      </button>
    );
  return (
    <form class="form" ref={box} onSubmit={form.onSubmit}>
      <ErrorNotice error={form.error} />
      <TextField
        form={form}
        name="name"
        label={props.count === 0 ? "Site name" : "New site name"}
        hint={`This workspace has ${props.count} of the ${max} ${max === 1 ? "site" : "sites"} its plan (${plan}) allows.`}
        required
        maxLength={200}
      />
      <button type="submit" disabled={form.pending}>
        {form.pending ? "Creating…" : "Create site"}
      </button>
    </form>
  );
}

class SiteFailed extends Error {
  constructor(
    readonly workspaceName: string,
    readonly siteError: unknown,
  ) {
    super("site");
  }
}

/** A new workspace (Free plan, this person its Owner) and its first site, in one form. */
function NewWorkspace(props: { first: boolean }) {
  const [leftover, setLeftover] = useState<SiteFailed | null>(null);
  const form = useForm(
    { workspace: "", site: "" },
    async (v) => {
      setLeftover(null);
      const { workspace } = await call(client.POST("/workspaces", { body: { name: v.workspace.trim() } }));
      try {
        return (await call(client.POST("/sites", { body: { name: v.site.trim(), workspaceId: workspace.id } }))).site;
      } catch (err) {
        throw new SiteFailed(workspace.name, err);
      }
    },
    {
      // The workspace exists even when its site could not be made: the list shows it, with a form to add the site.
      failed: (err) => (err instanceof SiteFailed ? (setLeftover(err), void refreshSession(), true) : false),
      onSaved: async (site) => {
        await refreshSession();
        goSavedWith(`Your workspace and the site “${site.name}” are ready.`, site.id, "overview");
      },
    },
  );
  return (
    <form class="card form" onSubmit={form.onSubmit} aria-labelledby="new-workspace-title">
      <h2 id="new-workspace-title">{props.first ? "Create your workspace" : "Create another workspace"}</h2>
      <p class="muted">
        It starts on the Free plan (one site, three people). Its Plan screen shows what each plan costs and how to change it.
      </p>
      <ErrorNotice error={form.error} />
      {leftover && (
        <Notice kind="error">
          The workspace “{leftover.workspaceName}” was created, but its site was not: {explain(leftover.siteError)} Add the site from the
          workspace above.
        </Notice>
      )}
      {/* The workspace's own field problems come back under `name` (the request's field). */}
      <TextField
        form={form}
        name="workspace"
        label="Workspace name"
        hint="Your team, company or client, e.g. “Acme Studio”."
        error={form.errors["name"]}
        required
        maxLength={200}
      />
      <TextField
        form={form}
        name="site"
        label="First site name"
        hint="The website whose content you will manage here."
        required
        maxLength={200}
      />
      <button type="submit" disabled={form.pending}>
        {form.pending ? "Creating…" : "Create workspace and site"}
      </button>
    </form>
  );
}
