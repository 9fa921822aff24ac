/**
 * A person as the dashboard names them: by the name they gave at sign-up, the email address
 * kept in a tooltip (and for screen readers, after the name) so two people of the same name can
 * be told apart. Keys, the operator and the admin key have no name: their label says who they are.
 */
export interface Who {
  label: string;
  name?: string | null;
}

/** A revision's actor: a scheduled change is the schedule, named after whoever set it. */
export const revisionWho = (actor: Who & { kind: string }): Who =>
  actor.kind === "schedule" && actor.name ? { label: actor.label, name: `schedule set by ${actor.name}` } : actor;

/** The words for who it was: the name, else the label (an email, a key's name, "operator"). */
export const personName = (who: Who): string => (who.name ? who.name : who.label);

export function Person(props: { who: Who; prefix?: string }) {
  const { who } = props;
  const prefix = props.prefix ?? "";
  if (!who.name || who.name === who.label) return <>{prefix + who.label}</>;
  return (
    <span class="person" title={who.label}>
      {prefix + who.name}
      <span class="visually-hidden"> ({who.label})</span>
    </span>
  );
}
