/**
 * One labelled input or select bound to a key of a `useForm` form: the label, hint and the
 * field's error (from the error envelope) come with it, so a screen names each field once.
 * The label is the control's accessible name; the browser tests find controls by it.
 */
import { Field } from "./ui";
import type { Form } from "./use-form";

/** The part of a form a field reads and writes; any `useForm` result fits. */
interface Bound<V> {
  values: V;
  errors: Record<string, string>;
  set: Form<V, never>["set"];
}

type StringKeys<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;

export function TextField<V>(props: {
  form: Bound<V>;
  name: StringKeys<V>;
  label: string;
  hint?: string;
  /** Another source of the message (a check the page makes itself); the form's own error otherwise. */
  error?: string | undefined;
  type?: "text" | "email" | "password" | "url" | "search";
  required?: boolean;
  maxLength?: number;
  autoComplete?: string;
  placeholder?: string;
}) {
  const { form, name } = props;
  return (
    <Field label={props.label} hint={props.hint} error={props.error ?? form.errors[name]}>
      {(id, describedBy) => (
        <input
          id={id}
          // Preact types each input type's attributes apart; these five all take the attributes below.
          type={(props.type ?? "text") as "text"}
          required={props.required}
          maxLength={props.maxLength}
          autoComplete={props.autoComplete}
          placeholder={props.placeholder}
          value={form.values[name] as string}
          aria-describedby={describedBy}
          onInput={(e) => form.set(name, e.currentTarget.value as V[typeof name])}
        />
      )}
    </Field>
  );
}

/** Choices as [value, label] pairs, in the order shown. */
export type Options = readonly (readonly [string, string])[];

export function SelectField<V>(props: { form: Bound<V>; name: StringKeys<V>; label: string; hint?: string; options: Options }) {
  const { form, name } = props;
  return (
    <Field label={props.label} hint={props.hint} error={form.errors[name]}>
      {(id, describedBy) => (
        <select
          id={id}
          value={form.values[name] as string}
          aria-describedby={describedBy}
          onChange={(e) => form.set(name, e.currentTarget.value as V[typeof name])}
        >
          {props.options.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
