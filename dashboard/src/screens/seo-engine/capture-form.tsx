/**
 * Capturing the page the service renders from: its address, where visitors see it, the
 * collection its list shows, and (Advanced) what feeds titles and images. A capture that would
 * take pages away from the current one is confirmed first, with what stops being served.
 */
import { ApiFailure } from "../../api";
import { CAPTURE_REASONS, type Capture } from "../../capture-types";
import { Confirm, ErrorNotice, Field, Notice } from "../../ui";
import { Advanced } from "./advanced";
import { type Replacing, useCaptureForm } from "./use-capture-form";

export function CaptureForm(props: { existing: Capture | null; onCaptured: (c: Capture) => void }) {
  const e = props.existing;
  const { form, list, submit, captureNow, replacing, setReplacing } = useCaptureForm(e, props.onCaptured);
  const { pageUrl, publicUrl, collection, showsList } = form.values;
  const { error, errors } = form;
  const chosen = list.find((c) => c.slug === collection);
  const fields = chosen?.fields ?? [];
  // The fields the service picks when none is chosen: it decides and sends them with the collection.
  const defaults = chosen?.seoDefaults ?? { titleField: null, descriptionField: null, imageField: null, authorField: null };
  return (
    <form class="card form" onSubmit={submit}>
      <h2>{e ? "Capture again" : "Capture your page"}</h2>
      <CaptureFailure error={error} hadCapture={e !== null} />
      <Field
        label="Page URL"
        hint="A published page of your site that shows the list widget and includes the embed script."
        error={errors.pageUrl}
      >
        {(id, d) => (
          <input
            id={id}
            type="url"
            required
            value={pageUrl}
            aria-describedby={d}
            onInput={(ev) => form.set("pageUrl", ev.currentTarget.value)}
          />
        )}
      </Field>
      <Field
        label="Public URL"
        hint="Where visitors see this page, if not at the Page URL (defaults to the Page URL). Its path is where the rendered pages live."
        error={errors.publicUrl}
      >
        {(id, d) => (
          <input
            id={id}
            type="url"
            value={publicUrl}
            placeholder={pageUrl}
            aria-describedby={d}
            onInput={(ev) => form.set("publicUrl", ev.currentTarget.value)}
          />
        )}
      </Field>
      <Field label="Collection" hint="The collection the page's list shows; every item of it gets a page." error={errors.collection}>
        {(id, d) => (
          <select
            id={id}
            required
            value={collection}
            aria-describedby={d}
            onChange={(ev) => form.set("collection", ev.currentTarget.value)}
          >
            {list.map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="field">
        <label class="check">
          <input type="checkbox" checked={showsList} onChange={(ev) => form.set("showsList", ev.currentTarget.checked)} />
          This URL shows a list of items
        </label>
        <p class="hint">Unchecked: the page is only a template for item pages, and its own address answers “not found”.</p>
      </div>
      <Advanced form={form} fields={fields} defaults={defaults} />
      <button type="submit" disabled={form.pending}>
        {form.pending ? "Capturing…" : e ? "Capture again" : "Capture page"}
      </button>
      <ReplaceConfirm
        replacing={replacing}
        showsList={e?.showsList ?? false}
        onClose={(ok) => {
          setReplacing(null);
          if (ok) captureNow();
        }}
      />
    </form>
  );
}

/** Why the capture failed: a page that cannot serve as the template in words, else the error itself. */
function CaptureFailure(props: { error: unknown; hadCapture: boolean }) {
  const { error } = props;
  const failure = error instanceof ApiFailure && error.error.code === "capture_failed" ? error : null;
  const reason = failure ? String(failure.error.details?.reason ?? "") : "";
  return failure ? (
    <Notice kind="error">
      <p>
        <strong>The page could not be captured.</strong>{" "}
        {CAPTURE_REASONS[reason] ?? failure.error.message.replace(/^Cannot capture: /, "The page cannot serve as the template: ")}
      </p>
      {props.hadCapture && <p>Your previous capture stays in use.</p>}
    </Notice>
  ) : (
    <ErrorNotice error={error} />
  );
}

/** What a capture elsewhere stops serving, to be confirmed before it is made. */
function ReplaceConfirm(props: { replacing: Replacing | null; showsList: boolean; onClose: (ok: boolean) => void }) {
  const { replacing } = props;
  return (
    <Confirm
      open={replacing !== null}
      title="Replace the captured page?"
      confirmLabel="Replace and stop serving these pages"
      danger
      onClose={props.onClose}
    >
      {replacing && (
        <>
          <p>
            The service keeps one captured page. This capture replaces the current one, and these stop being served at once (visitors and
            crawlers get “not found” there):
          </p>
          <ul>
            <li>
              Address: <code>{replacing.path}</code> and every page under it
            </li>
            <li>Collection: {replacing.collection}</li>
            <li>
              {replacing.pages} page{replacing.pages === 1 ? "" : "s"} (
              {props.showsList ? "the list page and each published item" : "each published item"}), with their sitemap and feeds
            </li>
          </ul>
          <p>
            Rendered pages then live under <code>{replacing.newPath}</code>.
          </p>
        </>
      )}
    </Confirm>
  );
}
