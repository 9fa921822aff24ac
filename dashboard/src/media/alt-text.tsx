/**
 * A library entry's alt text, edited where the image is shown: the Media screen's card and an
 * item's image field. It is saved on the entry (every item showing the image follows), by its own
 * button and never by the item's Save. So it is not a <form> (the item editor is one already), and
 * Enter in it saves the alt text instead of submitting the item.
 */
import { call, client } from "../api";
import { inSite } from "../site-state";
import type { MediaEntry } from "../types";
import { ErrorNotice, Field, Notice } from "../ui";
import { type Form, useForm } from "../use-form";

export type AltTextForm = Form<{ alt: string }, never>;

/** `onSaved` gets the entry with its new alt text (the screen's copy of the library follows). */
export function useAltText(m: MediaEntry, onSaved?: (m: MediaEntry) => void): AltTextForm {
  return useForm({ alt: m.alt }, (body: { alt: string }) =>
    call(client.PATCH("/sites/{siteId}/media/{mediaId}", { params: { path: inSite({ mediaId: m.mediaId }) }, body })).then(() =>
      onSaved?.({ ...m, alt: body.alt }),
    ),
  );
}

export function AltTextField(props: { form: AltTextForm; label: string; name: string; hint?: string }) {
  const { form } = props;
  const save = () => void form.submit();
  return (
    <div class="alt-text">
      <Field label={props.label} hint={props.hint} error={form.errors["alt"]}>
        {(id, d) => (
          <input
            id={id}
            value={form.values.alt}
            maxLength={1000}
            aria-describedby={d}
            onInput={(e) => form.set("alt", e.currentTarget.value)}
            // Leaving the box saves it too: an owner who types the alt text and goes straight to the
            // item's Save would otherwise lose it, since it belongs to the media entry, not the item.
            // (Blur, not change: preact/compat, which the bundle loads, turns onChange into input.)
            onBlur={() => {
              if (form.dirty && !form.pending) save();
            }}
            onKeyDown={(e) => {
              if (e.key !== "Enter") return;
              e.preventDefault();
              save();
            }}
          />
        )}
      </Field>
      <button type="button" class="secondary small" disabled={form.pending} onClick={save}>
        Save alt text for {props.name}
      </button>
      {form.saved && <Notice kind="ok">Alt text saved.</Notice>}
      <ErrorNotice error={form.error} />
    </div>
  );
}
