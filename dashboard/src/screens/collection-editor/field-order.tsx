/**
 * A field row's place in the collection: dragged by its handle, or moved with the keyboard (the
 * handle takes ArrowUp / ArrowDown, and the up and down buttons are ordinary buttons). The order is
 * the item form's, the API's `fields` and the export's columns.
 */
/** The moved list: `from` taken out and put at `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return [...list];
  const out = [...list];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item as T);
  return out;
}

const DRAG_TYPE = "application/x-field-row";

/** What a field row needs to be dropped on: spread onto the row element. */
export function dropTarget(index: number, onMove: (from: number, to: number) => void) {
  return {
    onDragOver: (e: DragEvent) => {
      if (e.dataTransfer?.types.includes(DRAG_TYPE)) e.preventDefault();
    },
    onDrop: (e: DragEvent) => {
      const from = Number(e.dataTransfer?.getData(DRAG_TYPE));
      if (!Number.isInteger(from)) return;
      e.preventDefault();
      onMove(from, index);
    },
  };
}

export function FieldOrder(props: { index: number; count: number; onMove: (from: number, to: number) => void; name: string }) {
  const { index, count, onMove } = props;
  const n = index + 1;
  // The row re-renders at its new place: the focus follows the field, not the position.
  const moveBy = (delta: number, refocus: "handle" | "button") => {
    const to = index + delta;
    if (to < 0 || to >= count) return;
    onMove(index, to);
    if (refocus === "handle") requestAnimationFrame(() => document.getElementById(`field-handle-${to}`)?.focus());
  };
  return (
    <div class="field-order">
      <button
        type="button"
        id={`field-handle-${index}`}
        class="secondary small drag-handle"
        draggable
        aria-label={`Move field ${n} (${props.name}): drag, or use the arrow keys`}
        title="Drag to reorder, or use the arrow keys"
        onDragStart={(e) => {
          e.dataTransfer?.setData(DRAG_TYPE, String(index));
          if (e.dataTransfer) e.dataTransfer.effectAllowed = "move";
        }}
        onKeyDown={(e) => {
          if (e.key === "ArrowUp" || e.key === "ArrowDown") {
            e.preventDefault();
            moveBy(e.key === "ArrowUp" ? -1 : 1, "handle");
          }
        }}
      >
        <span aria-hidden="true">⠿</span>
      </button>
      <button type="button" class="secondary small" disabled={index === 0} onClick={() => moveBy(-1, "button")}>
        <span aria-hidden="true">↑</span>
        <span class="visually-hidden">Move field {n} up</span>
      </button>
      <button type="button" class="secondary small" disabled={index === count - 1} onClick={() => moveBy(1, "button")}>
        <span aria-hidden="true">↓</span>
        <span class="visually-hidden">Move field {n} down</span>
      </button>
    </div>
  );
}
