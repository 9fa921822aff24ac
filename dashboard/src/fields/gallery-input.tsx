/**
 * A gallery field's input: the images it shows, in order, each with its alt text (saved on the
 * media entry, as an image field's is), moved up or down or removed by buttons that name the
 * image; more are uploaded (several at once) or picked from the library.
 */
import { useId, useRef, useState } from "preact/hooks";
import { MAX_GALLERY } from "../../../src/contract/field-types";
import type { MediaEntry } from "../types";
import { Uploader } from "../media/uploader";
import { site } from "../site-state";
import { AltTextField, useAltText } from "../media/alt-text";
import { distinctMedia } from "./media-input";

export function GalleryInput(props: {
  label: string;
  hint?: string | undefined;
  value: readonly string[];
  library: MediaEntry[];
  error?: string | undefined;
  onChange: (ids: string[]) => void;
}) {
  const groupId = useId();
  // Files uploaded here or whose alt text changed: newer than the library the editor loaded.
  const [added, setAdded] = useState<MediaEntry[]>([]);
  const library = [...added, ...props.library.filter((m) => !added.some((a) => a.mediaId === m.mediaId))];
  const ids = props.value;
  // Uploads end one by one, sooner than the form renders again: each adds to the ids the last one left.
  const latest = useRef<readonly string[]>(ids);
  latest.current = ids;
  const siteId = site.value?.id;
  const keep = (m: MediaEntry) => setAdded((a) => [m, ...a.filter((x) => x.mediaId !== m.mediaId)]);
  const move = (i: number, by: -1 | 1) => {
    const next = [...ids];
    const [id] = next.splice(i, 1);
    next.splice(i + by, 0, id as string);
    props.onChange(next);
  };
  const toggle = (id: string, on: boolean) =>
    props.onChange(on ? (ids.includes(id) ? [...ids] : [...ids, id]) : ids.filter((x) => x !== id));
  const full = ids.length >= MAX_GALLERY;
  const describedBy = [props.hint ? `${groupId}-hint` : "", props.error ? `${groupId}-err` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <fieldset class="media-input gallery-input" aria-describedby={describedBy}>
      <legend>{props.label}</legend>
      {props.hint && (
        <p class="hint" id={`${groupId}-hint`}>
          {props.hint}
        </p>
      )}
      {ids.length === 0 ? (
        <p class="muted">No images yet: upload some or choose them from the media below.</p>
      ) : (
        <p class="hint">Each alt text is saved on its media entry as you leave its box: every item that shows the image follows.</p>
      )}
      {ids.length > 0 && (
        <ol class="gallery-list" aria-label={`${props.label}: images in order`}>
          {ids.map((id, i) => {
            const m = library.find((x) => x.mediaId === id);
            // Buttons name the image by its place: short, and distinct while alt texts are alike or empty.
            const name = `image ${i + 1}`;
            return (
              <li key={id} class="gallery-entry">
                {m ? <img class="thumb" src={m.url} srcset={m.srcset} sizes="160px" alt="" /> : <span class="thumb none">?</span>}
                <div class="gallery-entry-body">
                  {m ? (
                    <ImageAltText key={m.mediaId} m={m} label={`${props.label}, image ${i + 1}`} onSaved={keep} />
                  ) : (
                    <p class="muted">Not in the loaded library ({id}).</p>
                  )}
                  <div class="row-actions">
                    <button type="button" class="secondary small" disabled={i === 0} onClick={() => move(i, -1)}>
                      Move {name} up
                    </button>
                    <button type="button" class="secondary small" disabled={i === ids.length - 1} onClick={() => move(i, 1)}>
                      Move {name} down
                    </button>
                    <button type="button" class="secondary small" onClick={() => props.onChange(ids.filter((x) => x !== id))}>
                      Remove {name}
                    </button>
                  </div>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      {siteId && !full && (
        <Uploader
          siteId={siteId}
          imagesOnly
          multiple
          label={`Drop images for ${props.label}`}
          onUploaded={(m) => {
            keep(m);
            const next = latest.current.includes(m.mediaId) ? [...latest.current] : [...latest.current, m.mediaId];
            latest.current = next;
            props.onChange(next);
          }}
        />
      )}
      {full && <p class="hint">A gallery holds at most {MAX_GALLERY} images.</p>}
      <div class="media-picker" role="group" aria-label={`${props.label}: choose from media`}>
        {distinctMedia(library, "image", null).map((m) => {
          const on = ids.includes(m.mediaId);
          return (
            <label key={m.mediaId} class={on ? "media-choice on" : "media-choice"}>
              <input type="checkbox" checked={on} disabled={!on && full} onChange={(e) => toggle(m.mediaId, e.currentTarget.checked)} />
              {/* The caption names the image; the thumbnail itself is decoration here. */}
              <img class="thumb" src={m.url} alt="" loading="lazy" />
              <span class="caption">{m.alt || m.url.split("/").pop()}</span>
            </label>
          );
        })}
      </div>
      {props.error && (
        <p class="error" id={`${groupId}-err`}>
          {props.error}
        </p>
      )}
    </fieldset>
  );
}

/** One image's alt text, saved on its media entry (keyed by entry: another image starts afresh); the gallery's hint says so once. */
function ImageAltText(props: { m: MediaEntry; label: string; onSaved: (m: MediaEntry) => void }) {
  const form = useAltText(props.m, props.onSaved);
  return <AltTextField form={form} label={`${props.label}: alt text`} name={props.label} />;
}
