import { useState } from "preact/hooks";
import { call, client } from "../api";
import { go, href } from "../router";
import { PLAN_NAMES, type Plan } from "../types";
import { Copy, ErrorNotice, Field, Heading, Notice, type Submit } from "../ui";
import { useForm } from "../use-form";

interface Created {
  id: string;
  name: string;
  token: string;
  adminKey: string;
}

/** What only the operator does: create sites (and their workspaces) and open any site by id. */
export function Operator() {
  const [created, setCreated] = useState<Created | null>(null);
  const create = useForm({ name: "", plan: "starter" as Plan }, (body) => call(client.POST("/sites", { body })).then((r) => r.site), {
    onSaved: (site) => {
      setCreated(site);
      create.reset({ name: "", plan: create.values.plan });
    },
  });
  const [open, setOpen] = useState("");
  return (
    <section>
      <Heading>Operator</Heading>
      <ErrorNotice error={create.error} />
      <form class="card form" onSubmit={create.onSubmit}>
        <h2>Create a site</h2>
        <p class="muted">A new site gets a workspace of its own with the plan you choose.</p>
        <div class="row">
          <Field label="New site name" error={create.errors.name}>
            {(id, d) => (
              <input
                id={id}
                required
                maxLength={200}
                value={create.values.name}
                aria-describedby={d}
                onInput={(e) => create.set("name", e.currentTarget.value)}
              />
            )}
          </Field>
          <Field label="New site plan" error={create.errors.plan}>
            {(id, d) => (
              <select
                id={id}
                value={create.values.plan}
                aria-describedby={d}
                onChange={(e) => create.set("plan", e.currentTarget.value as Plan)}
              >
                {(Object.keys(PLAN_NAMES) as Plan[]).map((p) => (
                  <option key={p} value={p}>
                    {PLAN_NAMES[p]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <button type="submit" disabled={create.pending}>
          Create site
        </button>
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
