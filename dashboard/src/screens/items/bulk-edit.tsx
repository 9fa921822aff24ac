/**
 * One value set on every selected item: an option, a switch, a number or a price (a sale, a
 * category move, "sold out" on a whole range). Each item is changed with its own revision as
 * If-Match, so an item someone else changed meanwhile is refused and named, never overwritten.
 * A published item's change is live at once, as its PATCH is.
 */
import { useState } from "preact/hooks";
import { asOf, call, client, ApiFailure } from "../../api";
import { inSite } from "../../site-state";
import type { Collection, Field, Item } from "../../types";
import { Field as Labelled, type Submit } from "../../ui";
import { itemTitle } from "../../item-title";

const EDITABLE = new Set<Field["type"]>(["option", "boolean", "number", "decimal"]);

export function bulkFields(c: Collection): Field[] {
  return c.fields.filter((f) => EDITABLE.has(f.type));
}

function valueOf(f: Field, raw: string): unknown {
  if (f.type === "number") return Number(raw);
  if (f.type === "boolean") return raw === "true";
  return raw;
}

export function BulkEdit(props: {
  collection: Collection;
  items: readonly Item[];
  onDone: (message: string) => void;
  onError: (err: unknown) => void;
}) {
  const c = props.collection;
  const fields = bulkFields(c);
  const [key, setKey] = useState(fields[0]?.key ?? "");
  const [raw, setRaw] = useState("");
  const [busy, setBusy] = useState<string | null>(null);
  const field = fields.find((f) => f.key === key);
  if (!field) return null;

  const apply = async (e: Submit) => {
    e.preventDefault();
    if (raw.trim() === "" || props.items.length === 0) return;
    const value = valueOf(field, raw.trim());
    const refused: string[] = [];
    let done = 0;
    for (const i of props.items) {
      setBusy(`Changing ${done + 1} of ${props.items.length}…`);
      try {
        await call(
          client.PATCH("/sites/{siteId}/collections/{slug}/items/{id}", {
            params: { path: inSite({ slug: c.slug, id: i.id }), header: asOf(i) },
            body: { data: { [field.key]: value } },
          }),
        );
        done++;
      } catch (err) {
        // The first refusal of a value (a wrong number) stops the rest: the others would be refused alike.
        if (!(err instanceof ApiFailure) || err.status !== 412) {
          setBusy(null);
          props.onError(err);
          return;
        }
        refused.push(itemTitle(c, i));
      }
    }
    setBusy(null);
    const name = field.name ?? field.key;
    props.onDone(
      `${name} set on ${done} item${done === 1 ? "" : "s"}.` +
        (refused.length ? ` Not changed, since someone else changed them meanwhile: ${refused.join(", ")}.` : ""),
    );
  };

  return (
    <form class="toolbar bulk-edit" onSubmit={(e) => void apply(e)} aria-busy={busy !== null}>
      <Labelled label="Set field">
        {(id) => (
          <select
            id={id}
            value={key}
            onChange={(e) => {
              setKey(e.currentTarget.value);
              setRaw("");
            }}
          >
            {fields.map((f) => (
              <option key={f.key} value={f.key}>
                {f.name ?? f.key}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      <Labelled label="To">
        {(id) =>
          field.type === "option" || field.type === "boolean" ? (
            <select id={id} value={raw} required onChange={(e) => setRaw(e.currentTarget.value)}>
              <option value="">Choose…</option>
              {field.type === "boolean"
                ? [
                    <option key="t" value="true">
                      Yes
                    </option>,
                    <option key="f" value="false">
                      No
                    </option>,
                  ]
                : (field.options ?? []).map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label ?? o.value}
                    </option>
                  ))}
            </select>
          ) : (
            <input id={id} required inputMode="decimal" size={10} value={raw} onInput={(e) => setRaw(e.currentTarget.value)} />
          )
        }
      </Labelled>
      <button type="submit" class="secondary" disabled={props.items.length === 0 || busy !== null}>
        Apply to selected{props.items.length ? ` (${props.items.length.toLocaleString("en")})` : ""}
      </button>
      {busy && (
        <span class="muted" role="status">
          {busy}
        </span>
      )}
    </form>
  );
}
