import { href } from "./router";
import { site } from "./site-state";
import { PLAN_NAMES, type Plan } from "./types";
import { Notice } from "./ui";

/** What a screen offers on a higher plan, instead of the API's 403 plan_required. */
export function PlanGate(props: { needs: Plan; what: string }) {
  const s = site.value!;
  return (
    <Notice>
      <p>
        {props.what} {props.needs === "pro" ? "is" : "is part of"} the <strong>{PLAN_NAMES[props.needs]}</strong> plan; this site is on{" "}
        {PLAN_NAMES[s.plan]}.
      </p>
      <p>
        <a href={href(s.id, "plan")}>See what each plan includes</a>
      </p>
    </Notice>
  );
}
