/**
 * How this deployment lets the open site's workspace change plan, in one place for the Plan screen
 * and every plan notice: who may switch here, else a real link to whoever sells plans, else what
 * the operator must set. Read from getSite's `planChange` (the operator's wrangler vars).
 */
import { useEffect, useState } from "preact/hooks";
import { call, client } from "./api";
import { href } from "./router";
import { session } from "./session";
import { access, planChange, site } from "./site-state";
import { PLAN_NAMES, type Plan } from "./types";

export type ChangeWay =
  /** The caller switches on the Plan screen: the Owner where plans are self-serve, or the operator. */
  | { kind: "switch" }
  /** Self-serve, but someone else switches: the workspace's Owner (signed in with their account). */
  | { kind: "owner"; contact: string | null }
  /** Not self-serve: the operator's contact. */
  | { kind: "contact"; contact: string }
  /** Neither self-serve nor a contact: the operator has a setting to make. */
  | { kind: "unset" };

export function changeWay(): ChangeWay {
  const pc = planChange.value;
  if (access.value?.role === "operator") return { kind: "switch" };
  if (pc?.selfServe) {
    // A site admin key is the Owner of its one site but not of the workspace, which keeps the plan.
    const mine = session.value?.kind === "account" && (access.value?.permissions.includes("workspace.plan") ?? false);
    return mine ? { kind: "switch" } : { kind: "owner", contact: pc.contact };
  }
  return pc?.contact ? { kind: "contact", contact: pc.contact } : { kind: "unset" };
}

/** The workspace's name for a mail's subject; null where the caller cannot read the workspace (a site admin key). */
function useWorkspaceName(): string | null {
  const s = site.value!;
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    if (session.value?.kind === "site") return;
    let live = true;
    call(client.GET("/workspaces/{id}", { params: { path: { id: s.workspaceId } } })).then(
      (r) => live && setName(r.workspace.name),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [s.workspaceId]);
  return name;
}

/** A link to the operator's contact: a mail names the workspace, the site and the plan asked for. */
export function ContactLink(props: { contact: string; plan?: Plan; children?: string }) {
  const s = site.value!;
  const workspace = useWorkspaceName();
  const wanted = props.plan ? `the ${PLAN_NAMES[props.plan]} plan` : "another plan";
  let target = props.contact;
  if (target.toLowerCase().startsWith("mailto:")) {
    const which = workspace === null ? `the workspace of the site "${s.name}"` : `workspace "${workspace}"`;
    const subject = `Plan change for ${which}`;
    const body = `Please move ${which} (${s.workspaceId}, site "${s.name}") from the ${PLAN_NAMES[s.plan]} plan to ${wanted}.`;
    const sep = target.includes("?") ? "&" : "?";
    target = `${target}${sep}subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
  }
  return (
    <a class="button" href={target} rel="noopener noreferrer" target={target.startsWith("https:") ? "_blank" : undefined}>
      {props.children ?? `Ask for ${wanted}`}
    </a>
  );
}

/** What the operator must set, named exactly, when they set neither way. */
export function UnsetNotice() {
  return (
    <p>
      The team that runs this service has not said how plans change here. They set <code>SELF_SERVE_PLANS = "on"</code> (the workspace's
      Owner then changes plans on this screen) or <code>PLANS_CONTACT</code> (a <code>mailto:</code> or <code>https:</code> address to ask)
      in the <code>[vars]</code> of <code>wrangler.toml</code>.
    </p>
  );
}

/** A plan notice's way forward: to the Plan screen's switch, the operator's contact, or what is missing. */
export function PlanWay(props: { needs: Plan }) {
  const s = site.value!;
  const way = changeWay();
  const plans = <a href={href(s.id, "plan")}>See what each plan costs and includes</a>;
  switch (way.kind) {
    case "switch":
      return (
        <p class="actions">
          <a class="button" href={href(s.id, "plan")}>
            Change to the {PLAN_NAMES[props.needs]} plan
          </a>
        </p>
      );
    case "owner":
      return <p>The workspace's Owner can change its plan on the Plan screen. {plans}.</p>;
    case "contact":
      return (
        <p class="actions">
          <ContactLink contact={way.contact} plan={props.needs} /> {plans}
        </p>
      );
    case "unset":
      return (
        <>
          <UnsetNotice />
          <p>{plans}</p>
        </>
      );
  }
}
