import { PlanWay } from "./plan-change";
import { site } from "./site-state";
import { PLAN_NAMES, type Plan } from "./types";
import { Heading, Notice } from "./ui";

/**
 * What a screen offers on a higher plan, instead of the API's 403 plan_required: under the
 * screen's own heading (where "Skip to content" lands), with the way to that plan: the Plan
 * screen's switch, the operator's contact, or what the operator has yet to set.
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
        <PlanWay needs={props.needs} />
      </Notice>
    </section>
  );
}
