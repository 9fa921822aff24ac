/**
 * What the caller's role may not change is shown, not offered: its controls are disabled and one
 * line says who changes it (docs/accounts.md: "What a role cannot do is not offered"). The API stays the
 * authority; this only keeps a person from filling in a form that is bound to be refused.
 */
import type { ComponentChildren } from "preact";
import { can, roleName } from "./site-state";
import { Notice } from "./ui";

export function RoleGate(props: { permission: string; what: string; children: ComponentChildren }) {
  if (can(props.permission)) return <>{props.children}</>;
  return (
    <>
      <Notice kind="info">
        Your role ({roleName()}) can see {props.what} but not change them: an Administrator or the Owner can.
      </Notice>
      <fieldset class="role-read-only" disabled>
        {props.children}
      </fieldset>
    </>
  );
}
