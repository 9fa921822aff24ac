/**
 * A list shown as a table, with the three states every list has: loading, nothing yet (saying
 * what to do next), and the rows. A column given as `{ hidden }` has a heading only screen
 * readers hear (the actions column).
 */
import type { ComponentChildren } from "preact";

export type Column = string | { hidden: string };

export function DataTable<T>(props: {
  /** The table's accessible name. */
  label: string;
  columns: readonly Column[];
  /** null while loading. */
  rows: readonly T[] | null;
  /** One <tr> (with its key) per row. */
  row: (item: T) => ComponentChildren;
  /** What an empty list says: what there would be, and how to add the first. */
  empty: ComponentChildren;
  /** Shown while loading; nothing when left out. */
  loading?: string;
  /** The list could not be loaded: the screen says why (ErrorNotice); the table shows nothing. */
  error?: unknown;
}) {
  if (props.error) return null;
  if (props.rows === null) return props.loading ? <p class="loading">{props.loading}</p> : null;
  if (props.rows.length === 0) return <p class="empty">{props.empty}</p>;
  return (
    <div class="table-wrap">
      <table aria-label={props.label}>
        <thead>
          <tr>
            {props.columns.map((c) =>
              typeof c === "string" ? (
                <th key={c} scope="col">
                  {c}
                </th>
              ) : (
                <th key={c.hidden} scope="col">
                  <span class="visually-hidden">{c.hidden}</span>
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{props.rows.map(props.row)}</tbody>
      </table>
    </div>
  );
}
