/** One field of an item in the editor: the input its type needs, with its label, help and error. */
import { lazy, Suspense } from "preact/compat";
import { useId } from "preact/hooks";
import { DateInput } from "../../fields/date-input";
import { MediaInput, type MediaValue } from "../../fields/media-input";
import { GalleryInput } from "../../fields/gallery-input";
import { ReferencePicker } from "../../fields/reference-picker";
import type { Field, MediaList } from "../../types";
import { Field as Labelled } from "../../ui";

const RichText = lazy(() => import("../../fields/rich-text").then((m) => ({ default: m.RichText })));

interface FieldInputProps {
  field: Field;
  value: unknown;
  error: string | undefined;
  media: MediaList["media"];
  onChange: (v: unknown) => void;
}

/** What every input of a field is given: its label and help in words, and an id to hang them on. */
interface Shown extends FieldInputProps {
  label: string;
  help: string | undefined;
  labelId: string;
}

export function FieldInput(props: FieldInputProps) {
  const { field: f, value, error } = props;
  const labelId = useId();
  const shown = f.name?.trim() || f.key;
  const label = f.required ? `${shown} (required)` : shown;
  const help = f.help?.trim() || undefined;
  const p: Shown = { ...props, label, help, labelId };
  switch (f.type) {
    case "option":
      return <OptionInput {...p} />;
    case "richText":
      return <RichTextInput {...p} />;
    case "boolean":
      return <BooleanInput {...p} />;
    case "date":
      return <DateInput label={label} hint={help} value={typeof value === "string" ? value : ""} error={error} onChange={props.onChange} />;
    case "image":
    case "video":
      return (
        <MediaInput
          label={label}
          hint={help}
          kind={f.type}
          value={(value ?? null) as MediaValue}
          library={props.media}
          error={error}
          onChange={props.onChange}
        />
      );
    case "gallery":
      return (
        <GalleryInput
          label={label}
          hint={help}
          value={Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : []}
          library={props.media}
          error={error}
          onChange={props.onChange}
        />
      );
    case "reference":
    case "references":
      return (
        <ReferencePicker
          label={label}
          hint={help}
          target={f.collection ?? ""}
          multiple={f.type === "references"}
          value={Array.isArray(value) ? (value as string[]) : typeof value === "string" ? [value] : []}
          error={error}
          onChange={(ids) => props.onChange(f.type === "references" ? ids : (ids[0] ?? null))}
        />
      );
    default:
      return <TextInput {...p} />;
  }
}

function OptionInput(props: Shown) {
  const { field: f, value, error } = props;
  return (
    <Labelled label={props.label} error={error} hint={props.help}>
      {(id, d) => (
        <select
          id={id}
          value={typeof value === "string" ? value : ""}
          aria-describedby={d}
          aria-invalid={error ? true : undefined}
          onChange={(e) => props.onChange(e.currentTarget.value || null)}
        >
          <option value="">{f.required ? "Choose one" : "None"}</option>
          {(f.options ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label ?? o.value}
            </option>
          ))}
          {typeof value === "string" && value !== "" && !(f.options ?? []).some((o) => o.value === value) && (
            <option value={value}>{value} (no longer offered)</option>
          )}
        </select>
      )}
    </Labelled>
  );
}

function RichTextInput(props: Shown) {
  const { value, error, help, labelId } = props;
  return (
    <div class={error ? "field has-error" : "field"}>
      <span class="label" id={labelId}>
        {props.label}
      </span>
      {help && (
        <p class="hint" id={`${labelId}-hint`}>
          {help}
        </p>
      )}
      <Suspense fallback={<p class="muted">Loading the editor…</p>}>
        <RichText
          labelId={labelId}
          value={typeof value === "string" ? value : ""}
          error={error}
          errorId={[help ? `${labelId}-hint` : "", error ? `${labelId}-err` : ""].filter(Boolean).join(" ") || undefined}
          onChange={props.onChange}
        />
      </Suspense>
      {error && (
        <p class="error" id={`${labelId}-err`}>
          {error}
        </p>
      )}
    </div>
  );
}

function BooleanInput(props: Shown) {
  const { value, error, help, labelId } = props;
  return (
    <div class={error ? "field has-error" : "field"}>
      <label class="check">
        <input
          type="checkbox"
          checked={value === true}
          aria-describedby={help ? `${labelId}-hint` : undefined}
          onChange={(e) => props.onChange(e.currentTarget.checked)}
        />
        {props.label}
      </label>
      {help && (
        <p class="hint" id={`${labelId}-hint`}>
          {help}
        </p>
      )}
      {error && <p class="error">{error}</p>}
    </div>
  );
}

/** Text, numbers and links (and any type without an input of its own). */
function TextInput(props: Shown) {
  const { field: f, value, error } = props;
  return (
    <Labelled
      label={props.label}
      error={error}
      hint={
        [
          props.help,
          f.type === "link" ? "A web address (https://…), a path (/about), mailto: or tel:." : "",
          f.type === "decimal" ? `A number with a dot, such as 34.90; kept exactly as typed${f.currency ? ` (${f.currency})` : ""}.` : "",
        ]
          .filter(Boolean)
          .join(" ") || undefined
      }
    >
      {(id, d) =>
        f.type === "number" ? (
          <input
            id={id}
            type="number"
            step="any"
            value={value === undefined || value === null ? "" : String(value)}
            aria-describedby={d}
            aria-invalid={error ? true : undefined}
            onInput={(e) => props.onChange(e.currentTarget.value)}
          />
        ) : (
          <input
            id={id}
            type="text"
            inputMode={f.type === "link" ? "url" : f.type === "decimal" ? "decimal" : undefined}
            value={value === undefined || value === null ? "" : String(value)}
            aria-describedby={d}
            aria-invalid={error ? true : undefined}
            onInput={(e) => props.onChange(e.currentTarget.value)}
          />
        )
      }
    </Labelled>
  );
}
