import { useId, useState } from "preact/hooks";
import type { MediaEntry } from "../types";
import { Field } from "../ui";
import { Uploader } from "../media/uploader";
import { CopyIntoLibrary } from "../media/card-actions";
import { site } from "../site-state";
import { AltTextField, useAltText } from "../media/alt-text";

/** An image or video field's value in the form: an existing media id, or a new URL with alt text. */
export type MediaValue = string | { url: string; alt: string } | null;

/**
 * The library as the picker shows it: one entry per address (the same URL saved by several
 * items is registered once per save), keeping the entry the field already holds.
 */
export function distinctMedia(library: readonly MediaEntry[], kind: "image" | "video", chosen: string | null): MediaEntry[] {
  const byUrl = new Map<string, MediaEntry>();
  for (const m of library) {
    if (kind === "image" && /\.(mp4|webm|mov|m4v)(\?|$)/i.test(m.url)) continue;
    const seen = byUrl.get(m.url);
    if (!seen || m.mediaId === chosen) byUrl.set(m.url, m);
  }
  return [...byUrl.values()];
}

export function MediaInput(props: {
  label: string;
  hint?: string | undefined;
  kind: "image" | "video";
  value: MediaValue;
  library: MediaEntry[];
  error?: string | undefined;
  onChange: (v: MediaValue) => void;
}) {
  const groupId = useId();
  // Files uploaded from this field: in the library from now on, shown before the next reload of it.
  const [added, setAdded] = useState<MediaEntry[]>([]);
  const [localPreview, setLocalPreview] = useState<string | null>(null);
  const library = [...added, ...props.library.filter((m) => !added.some((a) => a.mediaId === m.mediaId))];
  const v = props.value;
  const chosenId = typeof v === "string" ? v : null;
  const choices = distinctMedia(library, props.kind, chosenId);
  const existing = chosenId ? library.find((m) => m.mediaId === chosenId) : undefined;
  const siteId = site.value?.id;
  const url = typeof v === "string" ? (existing?.url ?? "") : (v?.url ?? "");
  const alt = typeof v === "string" ? (existing?.alt ?? "") : (v?.alt ?? "");
  const describedBy = [props.hint ? `${groupId}-hint` : "", props.error ? `${groupId}-err` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <fieldset class="media-input" aria-describedby={describedBy}>
      <legend>{props.label}</legend>
      {props.hint && (
        <p class="hint" id={`${groupId}-hint`}>
          {props.hint}
        </p>
      )}
      {props.kind === "image" && siteId && (
        <Uploader
          siteId={siteId}
          imagesOnly
          multiple={false}
          label={`Drop an image for ${props.label}`}
          onFiles={(files) => {
            const f = files[0];
            if (f) setLocalPreview(URL.createObjectURL(f));
          }}
          onUploaded={(m) => {
            setAdded((a) => [m, ...a]);
            props.onChange(m.mediaId);
          }}
        />
      )}
      {props.kind === "image" && localPreview && !existing && <img class="preview" src={localPreview} alt={`${props.label} preview`} />}
      {url && props.kind === "image" && (typeof v !== "string" || added.some((m) => m.mediaId === chosenId)) && (
        <img class="preview" src={url} srcset={existing?.srcset} sizes="320px" alt={alt || `${props.label} preview`} />
      )}
      {url && props.kind === "video" && <video class="preview" src={url} controls aria-label={`${props.label} preview`} />}
      {props.kind === "image" ? (
        <div class="media-picker" role="radiogroup" aria-label={`${props.label}: choose from media`}>
          {/* No library entry: nothing, or the new address typed below. */}
          <label class={chosenId === null ? "media-choice on" : "media-choice"}>
            <input type="radio" name={groupId} checked={chosenId === null} onChange={() => props.onChange(null)} />
            <span class="thumb none" aria-hidden="true">
              —
            </span>
            <span class="caption">{v !== null && typeof v !== "string" ? "New URL below" : "None"}</span>
          </label>
          {choices.map((m) => (
            <label key={m.mediaId} class={m.mediaId === chosenId ? "media-choice on" : "media-choice"}>
              <input type="radio" name={groupId} checked={m.mediaId === chosenId} onChange={() => props.onChange(m.mediaId)} />
              {/* The caption names the image; the thumbnail itself is decoration here. */}
              <img class="thumb" src={m.url} alt="" loading="lazy" />
              <span class="caption">{m.alt || m.url.split("/").pop()}</span>
            </label>
          ))}
        </div>
      ) : (
        <Field label={`${props.label}: choose from media`}>
          {(id) => (
            <select id={id} value={chosenId ?? ""} onChange={(e) => props.onChange(e.currentTarget.value || null)}>
              <option value="">{typeof v === "string" || v === null ? "None" : "New URL below"}</option>
              {choices.map((m) => (
                <option key={m.mediaId} value={m.mediaId}>
                  {m.alt || m.url.split("/").pop()}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <div class="pair">
        <Field
          label={`${props.label}: URL`}
          hint={typeof v === "string" ? "From the media library; type another address to use a new image." : undefined}
        >
          {(id, d) => (
            <input
              id={id}
              type="url"
              value={url}
              placeholder="https://"
              aria-describedby={d}
              onInput={(e) => props.onChange(e.currentTarget.value ? { url: e.currentTarget.value, alt } : null)}
            />
          )}
        </Field>
        {typeof v === "string" && existing ? (
          <EntryAltText
            key={existing.mediaId}
            m={existing}
            label={props.label}
            onSaved={(m) => setAdded((a) => [m, ...a.filter((x) => x.mediaId !== m.mediaId)])}
          />
        ) : (
          <Field label={`${props.label}: alt text`} hint="Describe the image for people who cannot see it.">
            {(id, d) => (
              <input id={id} value={alt} aria-describedby={d} onInput={(e) => props.onChange({ url, alt: e.currentTarget.value })} />
            )}
          </Field>
        )}
      </div>
      {existing && !existing.type && (
        <CopyIntoLibrary
          m={existing}
          name={`${props.label} (${existing.url.split("/").pop() || existing.url})`}
          onCopied={(m) => {
            setAdded((a) => [m, ...a.filter((x) => x.mediaId !== m.mediaId)]);
            props.onChange(m.mediaId);
          }}
        />
      )}
      {props.error && (
        <p class="error" id={`${groupId}-err`}>
          {props.error}
        </p>
      )}
    </fieldset>
  );
}

/** A library entry's alt text, saved on the entry by its own button (keyed by entry: a new choice starts afresh). */
function EntryAltText(props: { m: MediaEntry; label: string; onSaved: (m: MediaEntry) => void }) {
  const form = useAltText(props.m, props.onSaved);
  return (
    <AltTextField
      form={form}
      label={`${props.label}: alt text`}
      name={props.label}
      hint="Saved on the media entry as you leave the box: every item that shows this image follows."
    />
  );
}
