/**
 * useForm: the one hook every dashboard form that writes through the API uses.
 *
 *   const form = useForm({ name: site.name }, async (v) => (await call(client.PATCH(…, { body: v }))).site, {
 *     onSaved: (saved) => (site.value = saved),
 *   });
 *   <form onSubmit={form.onSubmit}>
 *     <FormFailure form={form} />                       // ui.tsx: what went wrong and what to do
 *     <Field label="Site name" error={form.errors.name}>
 *       {(id, d) => <input id={id} value={form.values.name} onInput={(e) => form.set("name", e.currentTarget.value)} />}
 *     </Field>
 *     <button type="submit" disabled={form.pending}>Save</button>
 *     {form.saved && <Notice kind="ok">Saved.</Notice>}
 *
 * What it gives:
 * - `values`, `set(key, value)`, `update(fn)`: the field state; `dirty` from the first change until
 *   a save succeeds or `reset(values)`.
 * - `onSubmit(event)`: the <form>'s handler; `submit(how?)` runs the save from elsewhere (a second
 *   button, after a confirmation) and resolves true when it saved. `how` is passed to `save`.
 * - `pending`: a save is under way (disable the buttons). `saved`: the last save succeeded.
 * - `errors`: messages by field, from the 400 envelope's `details.issues` (paths such as `name`,
 *   `fields.0.key`; `options.fieldOf` renames them, e.g. `data.title` → `title`) and a 409 that
 *   names a `slug`. `failure`: the whole failure in words, saying what to do (null when none);
 *   `error`: the thrown value itself, for screens that look at its code.
 * - `options.failed(err)`: return true when the screen dealt with a failure itself (nothing is shown).
 */
import { useState } from "preact/hooks";
import { ApiFailure } from "./api";
import { explain } from "./ui";

export interface Form<V, H> {
  values: V;
  set: <K extends keyof V>(key: K, value: V[K]) => void;
  update: (change: (values: V) => V) => void;
  dirty: boolean;
  pending: boolean;
  saved: boolean;
  errors: Record<string, string>;
  failure: string | null;
  error: unknown;
  onSubmit: (event: Event) => void;
  submit: (how?: H) => Promise<boolean>;
  reset: (values?: V) => void;
}

export interface FormOptions<R, H> {
  onSaved?: (result: R, how: H | undefined) => void | Promise<void>;
  fieldOf?: (path: string) => string;
  failed?: (error: unknown) => boolean | Promise<boolean>;
}

export function useForm<V, R = unknown, H = never>(
  initial: V,
  save: (values: V, how: H | undefined) => Promise<R>,
  options: FormOptions<R, H> = {},
): Form<V, H> {
  const [values, setValues] = useState<V>(initial);
  const [dirty, setDirty] = useState(false);
  const [pending, setPending] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const update = (change: (values: V) => V) => {
    setValues(change);
    setDirty(true);
    setSaved(false);
  };
  const submit = async (how?: H): Promise<boolean> => {
    setPending(true);
    setError(null);
    setSaved(false);
    try {
      const result = await save(values, how);
      setDirty(false);
      setSaved(true);
      await options.onSaved?.(result, how);
      return true;
    } catch (err) {
      if (!(await options.failed?.(err))) setError(err);
      return false;
    } finally {
      setPending(false);
    }
  };
  return {
    values,
    set: (key, value) => update((v) => ({ ...v, [key]: value })),
    update,
    dirty,
    pending,
    saved,
    errors: fieldErrors(error, options.fieldOf),
    failure: error ? explain(error) : null,
    error,
    onSubmit: (event) => {
      event.preventDefault();
      void submit();
    },
    submit,
    reset: (next) => {
      if (next !== undefined) setValues(next);
      setDirty(false);
      setError(null);
    },
  };
}

/** The envelope's field problems by (renamed) path; a 409 naming a slug belongs to the Slug field. */
function fieldErrors(error: unknown, fieldOf: (path: string) => string = (p) => p): Record<string, string> {
  if (!(error instanceof ApiFailure)) return {};
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(error.fieldErrors)) out[fieldOf(path)] ??= message;
  const d = error.error.details;
  if (error.error.code === "conflict" && (typeof d?.["slug"] === "string" || Array.isArray(d?.["slugs"]))) out["slug"] ??= error.message;
  return out;
}
