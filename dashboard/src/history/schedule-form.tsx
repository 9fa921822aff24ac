/**
 * The editor's Schedule section: publish and unpublish times picked as a date and a time in a
 * time zone (the viewer's, unless they pick another), always named; a time the zone skips is
 * refused in words, a time it has twice is asked about. The API gets instants with an offset.
 */
import { Fragment } from "preact";
import { useId, useState } from "preact/hooks";
import { ApiFailure, asOf, call, client } from "../api";
import { inSite } from "../site-state";
import type { Item } from "../types";
import { ErrorNotice, Notice } from "../ui";
import { instantsOf, localOf, offsetLabel, showInZone, viewerZone } from "../time-zone";

type Which = "publishAt" | "unpublishAt";
const ZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf("timeZone");
  } catch {
    return [];
  }
})();

function WhenInput(props: {
  legend: string;
  zone: string;
  value: { date: string; time: string; pick: number };
  onChange: (v: { date: string; time: string; pick: number }) => void;
  /** The service's word on this time (in the past, before the publish time...), shown in the picker. */
  error?: string | undefined;
}) {
  const id = useId();
  const errorId = props.error ? `${id}-error` : undefined;
  const { date, time, pick } = props.value;
  const options = date && time ? instantsOf(props.zone, `${date}T${time}`) : [];
  return (
    <fieldset class="when">
      <legend>{props.legend}</legend>
      {(["date", "time"] as const).map((part) => (
        <Fragment key={part}>
          <label for={`${id}-${part}`}>{part === "date" ? "Date" : "Time"}</label>
          <input
            id={`${id}-${part}`}
            type={part}
            value={props.value[part]}
            aria-invalid={errorId ? true : undefined}
            aria-describedby={errorId}
            onInput={(e) => props.onChange({ ...props.value, [part]: e.currentTarget.value })}
          />
        </Fragment>
      ))}
      {props.error && (
        <p class="error" id={errorId}>
          This time {props.error}.
        </p>
      )}
      {date && time && options.length === 0 && (
        <p class="error" role="alert">
          {time} does not exist on {date} in {props.zone} (the clocks go forward): pick a later time.
        </p>
      )}
      {options.length === 2 && (
        <div role="radiogroup" aria-label={`${time} happens twice on ${date}`}>
          <p class="hint">
            {time} happens twice on {date} in {props.zone} (the clocks go back). Which one?
          </p>
          {options.map((ms, i) => (
            <label class="check" key={ms}>
              <input type="radio" name={`${id}-pick`} checked={pick === i} onChange={() => props.onChange({ ...props.value, pick: i })} />
              {time} {offsetLabel(props.zone, ms)}
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

export function ScheduleForm(props: { item: Item; collectionSlug: string; onChanged: (item: Item) => void }) {
  const { item } = props;
  const viewer = viewerZone();
  const [zone, setZone] = useState(viewer);
  const initial = (iso: string | null | undefined) =>
    iso
      ? { date: localOf(zone, Date.parse(iso)).slice(0, 10), time: localOf(zone, Date.parse(iso)).slice(11, 16), pick: 0 }
      : { date: "", time: "", pick: 0 };
  const [publish, setPublish] = useState(initial(item.schedule?.publishAt));
  const [unpublish, setUnpublish] = useState(initial(item.schedule?.unpublishAt));
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const zoneId = useId();
  const path = inSite({ slug: props.collectionSlug, id: item.id });
  const published = item.status === "published";
  const canPublish = !published || item.pendingChanges !== null;

  const instant = (v: { date: string; time: string; pick: number }): string | null | undefined => {
    if (!v.date && !v.time) return null;
    const all = instantsOf(zone, `${v.date}T${v.time}`);
    const ms = all[Math.min(v.pick, all.length - 1)];
    return ms === undefined ? undefined : new Date(ms).toISOString().replace(".000Z", "Z");
  };
  const save = async () => {
    setError(null);
    setLocal(null);
    const body: { publishAt?: string | null; unpublishAt?: string | null; timeZone: string } = { timeZone: zone };
    for (const [k, v] of [
      ["publishAt", publish],
      ["unpublishAt", unpublish],
    ] as [Which, typeof publish][]) {
      if (k === "publishAt" && !canPublish) continue;
      const at = instant(v);
      if (at === undefined) return setLocal("Pick a date and a time that exist in the chosen time zone.");
      body[k] = at;
    }
    setBusy(true);
    try {
      props.onChanged(
        (
          await call(
            client.PUT("/sites/{siteId}/collections/{slug}/items/{id}/schedule", { params: { path, header: asOf(props.item) }, body }),
          )
        ).item,
      );
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const cancel = async () => {
    setBusy(true);
    try {
      props.onChanged(
        (
          await call(
            client.DELETE("/sites/{siteId}/collections/{slug}/items/{id}/schedule", { params: { path, header: asOf(props.item) } }),
          )
        ).item,
      );
      setPublish({ date: "", time: "", pick: 0 });
      setUnpublish({ date: "", time: "", pick: 0 });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const s = item.schedule;
  // The service names the time it refused (`publishAt`, `unpublishAt`): said in that picker.
  const fieldErrors = error instanceof ApiFailure ? error.fieldErrors : {};
  return (
    <section class="card schedule" aria-labelledby={`${zoneId}-h`}>
      <h2 id={`${zoneId}-h`}>Schedule</h2>
      {s ? (
        <Notice kind="info">
          {s.publishAt && <p>Goes live {showInZone(s.publishAt, viewer)}.</p>}
          {s.unpublishAt && <p>Taken down {showInZone(s.unpublishAt, viewer)}.</p>}
          {s.timeZone && s.timeZone !== viewer && <p class="muted">Picked in {s.timeZone}.</p>}
        </Notice>
      ) : (
        <p class="muted">Not scheduled. The site publishes or unpublishes the item by itself at the times you pick.</p>
      )}
      <ErrorNotice error={error} />
      {local && <Notice kind="error">{local}</Notice>}
      <div class="field">
        <label for={zoneId}>Time zone</label>
        <select id={zoneId} value={zone} onChange={(e) => setZone(e.currentTarget.value)}>
          {(ZONES.includes(viewer) ? ZONES : [viewer, ...ZONES]).map((z) => (
            <option key={z} value={z}>
              {z === viewer ? `${z} (your time zone)` : z}
            </option>
          ))}
        </select>
        {fieldErrors.timeZone && <p class="error">Time zone: {fieldErrors.timeZone}.</p>}
      </div>
      {canPublish && (
        <WhenInput
          legend={published ? "Publish the pending changes on" : "Publish on"}
          zone={zone}
          value={publish}
          onChange={setPublish}
          error={fieldErrors.publishAt}
        />
      )}
      <WhenInput legend="Unpublish on (optional)" zone={zone} value={unpublish} onChange={setUnpublish} error={fieldErrors.unpublishAt} />
      <p class="hint">
        Publishing by hand cancels the scheduled publish and keeps the unpublish time; unpublishing by hand cancels the schedule.
      </p>
      <div class="actions">
        <button type="button" disabled={busy} onClick={() => void save()}>
          Save schedule
        </button>
        {s && (
          <button type="button" class="secondary" disabled={busy} onClick={() => void cancel()}>
            Cancel schedule
          </button>
        )}
      </div>
    </section>
  );
}
