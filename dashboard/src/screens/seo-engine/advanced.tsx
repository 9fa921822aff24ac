/** The capture form's Advanced part: which fields feed titles, descriptions and images, and the rest of the SEO settings. */
import type { Field as CollectionField } from "../../types";
import { Field } from "../../ui";
import type { CaptureFormState } from "./use-capture-form";

type Defaults = Record<SeoFieldKey, string | null>;
type SeoFieldKey = "titleField" | "descriptionField" | "imageField" | "authorField";

export function Advanced(props: { form: CaptureFormState; fields: readonly CollectionField[]; defaults: Defaults }) {
  const { form, fields, defaults } = props;
  const { seo, secret } = form.values;
  const seoField = (key: SeoFieldKey, label: string) => (
    <Field label={label} hint={`Automatic: ${defaults[key] ?? "none"}`}>
      {(id, d) => (
        <select
          id={id}
          value={seo[key] ?? ""}
          aria-describedby={d}
          onChange={(ev) => form.set("seo", { ...seo, [key]: ev.currentTarget.value })}
        >
          <option value="">Automatic ({defaults[key] ?? "none"})</option>
          {fields.map((f) => (
            <option key={f.key} value={f.key}>
              {f.key}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
  // A whole number of the SEO settings; empty leaves the service's default.
  const numberSetting = (key: "goneDays" | "feedItems", label: string, hint: string, min: number, max: number) => (
    <Field label={label} hint={hint}>
      {(id, d) => (
        <input
          id={id}
          type="number"
          min={min}
          max={max}
          value={seo[key] ?? ""}
          aria-describedby={d}
          onInput={(ev) => form.set("seo", { ...seo, [key]: ev.currentTarget.value ? Number(ev.currentTarget.value) : undefined })}
        />
      )}
    </Field>
  );
  return (
    <details>
      <summary>Advanced: which fields feed titles, descriptions and images</summary>
      <div class="row">
        {seoField("titleField", "Title field")}
        {seoField("descriptionField", "Description field")}
        {seoField("imageField", "Image field")}
        {seoField("authorField", "Author field")}
      </div>
      <div class="row">
        <Field label="Site name" hint="Automatic: the page's og:site_name, else the site's name">
          {(id, d) => (
            <input
              id={id}
              maxLength={200}
              value={seo.siteName ?? ""}
              aria-describedby={d}
              onInput={(ev) => form.set("seo", { ...seo, siteName: ev.currentTarget.value })}
            />
          )}
        </Field>
        <Field label="Publisher" hint="Named in each article's structured data; automatic: none">
          {(id, d) => (
            <input
              id={id}
              maxLength={200}
              value={seo.publisher ?? ""}
              aria-describedby={d}
              onInput={(ev) => form.set("seo", { ...seo, publisher: ev.currentTarget.value })}
            />
          )}
        </Field>
        {numberSetting(
          "goneDays",
          "Days a removed item's page answers “gone” (410)",
          "0–365; 0 or empty: “not found” (404) at once. Search engines drop a page that says gone sooner.",
          0,
          365,
        )}
        {numberSetting("feedItems", "Items in feeds", "1–500; automatic: 50", 1, 500)}
        <Field
          label="Webhook signing secret (optional)"
          hint="Webflow's signing secret for the Site publish webhook, so its signed calls are accepted; at least 8 characters. Not needed when the builder signs with the secret shown above."
        >
          {(id, d) => (
            <input
              id={id}
              type="password"
              autoComplete="off"
              value={secret}
              aria-describedby={d}
              onInput={(ev) => form.set("secret", ev.currentTarget.value)}
            />
          )}
        </Field>
      </div>
    </details>
  );
}
