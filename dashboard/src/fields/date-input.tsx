import { Field } from "../ui";

/** Splits a stored UTC instant into the date and (when not midnight) time the owner typed. */
export function splitDate(v: unknown): { date: string; time: string } {
  if (typeof v !== "string" || v === "") return { date: "", time: "" };
  const [date = "", rest = ""] = v.split("T");
  const time = rest.slice(0, 5);
  return { date, time: time === "00:00" ? "" : time };
}

export const joinDate = (d: { date: string; time: string }): string => (d.date === "" ? "" : d.time ? `${d.date}T${d.time}:00Z` : d.date);

export function DateInput(props: {
  label: string;
  hint?: string | undefined;
  value: string;
  error?: string | undefined;
  onChange: (v: string) => void;
}) {
  const parts = splitDate(props.value);
  return (
    <div class="pair">
      <Field label={props.label} hint={props.hint} error={props.error}>
        {(id, d) => (
          <input
            id={id}
            type="date"
            value={parts.date}
            aria-describedby={d}
            onInput={(e) => props.onChange(joinDate({ ...parts, date: e.currentTarget.value }))}
          />
        )}
      </Field>
      <Field label={`${props.label}: time (UTC, optional)`}>
        {(id) => (
          <input
            id={id}
            type="time"
            value={parts.time}
            disabled={parts.date === ""}
            onInput={(e) => props.onChange(joinDate({ ...parts, time: e.currentTarget.value }))}
          />
        )}
      </Field>
    </div>
  );
}
