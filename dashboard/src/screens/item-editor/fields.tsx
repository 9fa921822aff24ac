/** The form's inputs: one per field of the collection, then the item's slug; read-only for a role that may not edit. */
import type { Collection, ItemData, MediaList } from "../../types";
import { Field as Labelled } from "../../ui";
import { FieldInput } from "./field-input";

export function ItemFields(props: {
  collection: Collection;
  values: ItemData;
  slug: string;
  errors: Record<string, string>;
  /** Part of each input's key: bumped, the inputs start again from the values (restore, discard). */
  generation: number;
  media: MediaList["media"];
  mayEdit: boolean;
  onChange: (key: string, value: unknown) => void;
  onSlug: (slug: string) => void;
}) {
  const { values, errors } = props;
  return (
    <fieldset class="role-read-only" disabled={!props.mayEdit}>
      {props.collection.fields.map((f) => (
        <FieldInput
          key={`${f.key}-${props.generation}`}
          field={f}
          value={values[f.key]}
          error={errors[f.key]}
          media={props.media}
          onChange={(v) => props.onChange(f.key, v)}
        />
      ))}
      <SlugInput value={props.slug} error={errors.slug} onInput={props.onSlug} />
    </fieldset>
  );
}

/** The item's slug, under its fields. */
function SlugInput(props: { value: string; error: string | undefined; onInput: (slug: string) => void }) {
  const { error } = props;
  return (
    <Labelled label="Slug" hint="The item's address: a-z, 0-9 and hyphens." error={error}>
      {(id, d) => (
        <input
          id={id}
          value={props.value}
          aria-describedby={d}
          aria-invalid={error ? true : undefined}
          onInput={(e) => props.onInput(e.currentTarget.value)}
        />
      )}
    </Labelled>
  );
}
