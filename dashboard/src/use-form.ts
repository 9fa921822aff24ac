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
 * - A field's message stays until that field's value changes (typed, or filled in for the owner, as
 *   a slug that follows the title): it was said of the value sent, not of the new one.
 *   `options.valueAt(values, path)` finds a field's value by its (renamed) path when the values are
 *   not shaped like the paths (default: the path's dot-separated steps into `values`).
 * - `options.failed(err)`: return true when the screen dealt with a failure itself (nothing is shown).
 */
import { useRef, useState } from "preact/hooks";
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

export interface FormOptions<V, R, H> {
  onSaved?: (result: R, how: H | undefined) => void | Promise<void>;
  fieldOf?: (path: string) => string;
  failed?: (error: unknown) => boolean | Promise<boolean>;
  valueAt?: (values: V, path: string) => unknown;
}

export function useForm<V, R = unknown, H = never>(
  initial: V,
  save: (values: V, how: H | undefined) => Promise<R>,
  options: FormOptions<V, R, H> = {},
): Form<V, H> {
  const [values, setValues] = useState<V>(initial);
  const [dirty, setDirty] = useState(false);
  const [pending, setPending] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // The values the failed save sent: a field changed since then no longer shows what was said of it.
  const [sent, setSent] = useState<V | null>(null);
  // What the fields hold now, even before the next render: a save started in the same event as a
  // change (a box saved as it is left, which a test's fill does in one go) sends the new value.
  const latest = useRef(values);

  const update = (change: (values: V) => V) => {
    latest.current = change(latest.current);
    setValues(latest.current);
    setDirty(true);
    setSaved(false);
  };
  const submit = async (how?: H): Promise<boolean> => {
    const values = latest.current;
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
      if (!(await options.failed?.(err))) {
        setError(err);
        setSent(values);
      }
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
    errors: unchanged(fieldErrors(error, options.fieldOf), values, sent, options.valueAt ?? valueAtPath),
    failure: error ? explain(error) : null,
    error,
    onSubmit: (event) => {
      event.preventDefault();
      void submit();
    },
    submit,
    reset: (next) => {
      if (next !== undefined) {
        latest.current = next;
        setValues(next);
      }
      setDirty(false);
      setError(null);
    },
  };
}

/** The messages of the fields whose value is still the one the failed save sent. */
function unchanged<V>(errors: Record<string, string>, now: V, sent: V | null, valueAt: (values: V, path: string) => unknown) {
  if (sent === null) return errors;
  const same = (path: string) => JSON.stringify(valueAt(now, path)) === JSON.stringify(valueAt(sent, path));
  return Object.fromEntries(Object.entries(errors).filter(([path]) => same(path)));
}

/** `fields.0.key` → values.fields[0].key (undefined where a step is missing). */
function valueAtPath(values: unknown, path: string): unknown {
  let at = values;
  for (const step of path.split(".")) at = typeof at === "object" && at !== null ? (at as Record<string, unknown>)[step] : undefined;
  return at;
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
