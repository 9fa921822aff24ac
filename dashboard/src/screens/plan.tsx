import { useState } from "preact/hooks";
import { api } from "../api";
import { session } from "../session";
import { includes, PLAN_FEATURES } from "../plans";
import { site, sitePath } from "../site-state";
import { PLAN_NAMES, type Plan, type Site } from "../types";
import { ErrorNotice, Field, Heading, Notice, type Submit } from "../ui";

const PLANS = Object.keys(PLAN_NAMES) as Plan[];

export function PlanScreen() {
  const s = site.value!;
  return (
    <section>
      <Heading>Plan</Heading>
      <p>
        This site is on the <strong>{PLAN_NAMES[s.plan]}</strong> plan.
        {session.value?.kind !== "operator" && " To change plans, contact the team that runs this service."}
      </p>
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">What each plan includes</caption>
          <thead>
            <tr>
              <th scope="col">Feature</th>
              {PLANS.map((p) => (
                <th scope="col" key={p}>
                  {PLAN_NAMES[p]}
                  {p === s.plan ? " (current)" : ""}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {PLAN_FEATURES.map((f) => (
              <tr key={f.label}>
                <th scope="row">{f.label}</th>
                {PLANS.map((p) => (
                  <td key={p}>{includes(p, f.from) ? "Included" : "—"}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {session.value?.kind === "operator" && <PlanForm />}
    </section>
  );
}

function PlanForm() {
  const s = site.value!;
  const [plan, setPlan] = useState<Plan>(s.plan);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const submit = async (e: Submit) => {
    e.preventDefault();
    setError(null);
    setSaved(false);
    try {
      await api("PATCH", `/workspaces/${s.workspaceId}`, { plan });
      site.value = (await api<{ site: Site }>("GET", sitePath())).site;
      setSaved(true);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <form class="card form" onSubmit={submit}>
      <h2>Change the plan (operator)</h2>
      <ErrorNotice error={error} />
      <Field label="Plan of this site's workspace" hint="Every site of the workspace gets the new plan at once.">
        {(id, d) => (
          <select id={id} value={plan} aria-describedby={d} onChange={(e) => setPlan(e.currentTarget.value as Plan)}>
            {PLANS.map((p) => (
              <option key={p} value={p}>
                {PLAN_NAMES[p]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="submit">Change plan</button>
      {saved && <Notice kind="ok">Plan changed.</Notice>}
    </form>
  );
}
