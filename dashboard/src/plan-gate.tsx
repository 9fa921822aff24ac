import { href } from "./router";
import { site } from "./site-state";
import { PLAN_NAMES, type Plan } from "./types";
import { Heading, Notice } from "./ui";

/**
 * What a screen offers on a higher plan, instead of the API's 403 plan_required: under the
 * screen's own heading (where "Skip to content" lands), with the way to the plans.
 */
export function PlanGate(props: { title: string; needs: Plan; what: string }) {
  const s = site.value!;
  return (
    <section>
      <Heading>{props.title}</Heading>
      <Notice>
        <p>
          {props.what}: included in the <strong>{PLAN_NAMES[props.needs]}</strong> plan. This site is on {PLAN_NAMES[s.plan]}.
        </p>
        <p>
          <a href={href(s.id, "plan")}>See what each plan includes and how to change plans</a>
        </p>
      </Notice>
    </section>
  );
}
