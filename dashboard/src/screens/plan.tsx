import { call, client } from "../api";
import { session } from "../session";
import { includes, PLAN_FEATURES } from "../plans";
import { inSite, site } from "../site-state";
import { PLAN_NAMES, type Plan } from "../types";
import { PLAN_LIMITS } from "../../../src/contract/plans";
import { ErrorNotice, Field, Heading, Notice } from "../ui";
import { useForm } from "../use-form";

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
            <tr>
              <th scope="row">Sites and people per workspace</th>
              {PLANS.map((p) => (
                <td key={p}>
                  {PLAN_LIMITS[p].sites} {PLAN_LIMITS[p].sites === 1 ? "site" : "sites"}, {PLAN_LIMITS[p].members} people
                </td>
              ))}
            </tr>
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
  const form = useForm({ plan: s.plan }, async (body) => {
    await call(client.PATCH("/workspaces/{id}", { params: { path: { id: s.workspaceId } }, body }));
    // The site's features follow its workspace's plan: read them again.
    site.value = (await call(client.GET("/sites/{siteId}", { params: { path: inSite() } }))).site;
  });
  return (
    <form class="card form" onSubmit={form.onSubmit}>
      <h2>Change the plan (operator)</h2>
      <ErrorNotice error={form.error} />
      <Field label="Plan of this site's workspace" hint="Every site of the workspace gets the new plan at once." error={form.errors.plan}>
        {(id, d) => (
          <select id={id} value={form.values.plan} aria-describedby={d} onChange={(e) => form.set("plan", e.currentTarget.value as Plan)}>
            {PLANS.map((p) => (
              <option key={p} value={p}>
                {PLAN_NAMES[p]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="submit" disabled={form.pending}>
        Change plan
      </button>
      {form.saved && <Notice kind="ok">Plan changed.</Notice>}
    </form>
  );
}
