import { useState } from "preact/hooks";
import { api } from "../api";
import { go, href } from "../router";
import { PLAN_NAMES, type Plan } from "../types";
import { Copy, ErrorNotice, Field, Heading, Notice, type Submit } from "../ui";

interface Created {
  id: string;
  name: string;
  token: string;
  adminKey: string;
}

/** What only the operator does: create sites (and their workspaces) and open any site by id. */
export function Operator() {
  const [name, setName] = useState("");
  const [plan, setPlan] = useState<Plan>("starter");
  const [created, setCreated] = useState<Created | null>(null);
  const [open, setOpen] = useState("");
  const [error, setError] = useState<unknown>(null);
  const create = async (e: Submit) => {
    e.preventDefault();
    setError(null);
    try {
      setCreated((await api<{ site: Created }>("POST", "/sites", { name, plan })).site);
      setName("");
    } catch (err) {
      setError(err);
    }
  };
  return (
    <section>
      <Heading>Operator</Heading>
      <ErrorNotice error={error} />
      <form class="card form" onSubmit={create}>
        <h2>Create a site</h2>
        <p class="muted">A new site gets a workspace of its own with the plan you choose.</p>
        <div class="row">
          <Field label="New site name">
            {(id) => <input id={id} required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <Field label="New site plan">
            {(id) => (
              <select id={id} value={plan} onChange={(e) => setPlan(e.currentTarget.value as Plan)}>
                {(Object.keys(PLAN_NAMES) as Plan[]).map((p) => (
                  <option key={p} value={p}>
                    {PLAN_NAMES[p]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <button type="submit">Create site</button>
      </form>
      {created && (
        <div class="card">
          <Notice kind="ok">
            Site “{created.name}” created. <strong>Give its owner the admin key now: it is shown only once.</strong>
          </Notice>
          <p class="token">
            Admin key: <code tabIndex={0}>{created.adminKey}</code> <Copy text={created.adminKey} label="Copy the new site's admin key" />
          </p>
          <p class="token">
            Public token: <code tabIndex={0}>{created.token}</code>
          </p>
          <a class="button" href={href(created.id, "overview")}>
            Open {created.name}
          </a>
        </div>
      )}
      <form
        class="card form"
        onSubmit={(e: Submit) => {
          e.preventDefault();
          if (open.trim()) go(open.trim(), "overview");
        }}
      >
        <h2>Open a site</h2>
        <Field label="Site id" hint="16 letters and digits, as in /sites/<id>.">
          {(id, d) => (
            <input
              id={id}
              required
              pattern="[a-z2-7]{16}"
              value={open}
              aria-describedby={d}
              onInput={(e) => setOpen(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit">Open site</button>
      </form>
    </section>
  );
}
