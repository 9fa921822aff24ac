import { useId } from "preact/hooks";
import type { MediaEntry } from "../types";
import { Field } from "../ui";

/** An image or video field's value in the form: an existing media id, or a new URL with alt text. */
export type MediaValue = string | { url: string; alt: string } | null;

export function MediaInput(props: {
  label: string;
  kind: "image" | "video";
  value: MediaValue;
  library: MediaEntry[];
  error?: string | undefined;
  onChange: (v: MediaValue) => void;
}) {
  const groupId = useId();
  const v = props.value;
  const existing = typeof v === "string" ? props.library.find((m) => m.mediaId === v) : undefined;
  const url = typeof v === "string" ? (existing?.url ?? "") : (v?.url ?? "");
  const alt = typeof v === "string" ? (existing?.alt ?? "") : (v?.alt ?? "");
  const choices = props.library;
  return (
    <fieldset class="media-input" aria-describedby={props.error ? `${groupId}-err` : undefined}>
      <legend>{props.label}</legend>
      {url && props.kind === "image" && <img class="preview" src={url} alt={alt} />}
      {url && props.kind === "video" && <video class="preview" src={url} controls aria-label={`${props.label} preview`} />}
      <Field label={`${props.label}: choose from media`}>
        {(id) => (
          <select id={id} value={typeof v === "string" ? v : ""} onChange={(e) => props.onChange(e.currentTarget.value || null)}>
            <option value="">{typeof v === "string" || v === null ? "None" : "New URL below"}</option>
            {choices.map((m) => (
              <option key={m.mediaId} value={m.mediaId}>
                {m.alt || m.url.split("/").pop()}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="pair">
        <Field label={`${props.label}: URL`}>
          {(id) => (
            <input
              id={id}
              type="url"
              value={typeof v === "string" ? "" : url}
              placeholder={typeof v === "string" ? url : "https://"}
              onInput={(e) => props.onChange(e.currentTarget.value ? { url: e.currentTarget.value, alt } : null)}
            />
          )}
        </Field>
        <Field
          label={`${props.label}: alt text`}
          hint={
            typeof v === "string"
              ? "Change an existing entry's alt text on the Media screen."
              : "Describe the image for people who cannot see it."
          }
        >
          {(id, d) => (
            <input
              id={id}
              value={alt}
              readOnly={typeof v === "string"}
              aria-describedby={d}
              onInput={(e) => props.onChange({ url, alt: e.currentTarget.value })}
            />
          )}
        </Field>
      </div>
      {props.error && (
        <p class="error" id={`${groupId}-err`}>
          {props.error}
        </p>
      )}
    </fieldset>
  );
}
