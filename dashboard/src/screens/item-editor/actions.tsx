/**
 * The editor's buttons. A role sees only what the API would let it do to this item: a role that
 * may not edit it gets its History, a role that cannot publish no Publish at all.
 */
import { session } from "../../session";
import { can, roleName } from "../../site-state";
import type { Item } from "../../types";
import type { SaveHow } from "./save";

/**
 * What the caller may do to `item` (null: a new one). A role limited to its own items (Contributor,
 * Author) is offered only what the API would let it do to this one: someone else's item is shown,
 * not offered for change (a 403 otherwise).
 */
export function permissionsOn(item: Item | null) {
  const mine = !item || (item.createdBy !== null && item.createdBy === session.value?.account?.id);
  return {
    mayEdit: can("items.edit.any") || (mine && can("items.edit.own")),
    mayDelete: can("items.delete.any") || (mine && can("items.delete.own")),
    // A role that cannot publish (Contributor) sees no Publish at all; the API would refuse it (403).
    mayPublish: can("items.publish.any") || (mine && can("items.publish.own")),
    mayShare: can("items.edit.any", "items.edit.own"),
  };
}

/** What the caller's role leaves out of the buttons below, in words. */
export function RoleNote(props: { mayEdit: boolean; mayPublish: boolean }) {
  return !props.mayEdit ? (
    <p class="muted">
      Someone else created this item: your role ({roleName()}) can change only items you created. An Editor or Administrator can change it.
    </p>
  ) : (
    !props.mayPublish && <p class="muted">Your role ({roleName()}) saves drafts; an Editor or Administrator publishes them.</p>
  );
}

/** A change the editor asks to be confirmed first. */
export type Confirming = "delete" | "unpublish" | "discard";

export interface ActionsProps {
  item: Item | null;
  mayEdit: boolean;
  mayPublish: boolean;
  mayDelete: boolean;
  mayShare: boolean;
  busy: boolean;
  save: (how: SaveHow) => void;
  confirm: (what: Confirming) => void;
  openHistory: () => void;
  openShare: () => void;
  cancel: () => void;
  /** Null where the role may not create items. */
  duplicate: (() => void) | null;
  /** Unsaved changes: a copy is made of what is saved, so it waits for them. */
  dirty: boolean;
}

export function EditorActions(props: ActionsProps) {
  const { item } = props;
  return (
    <div class="actions">
      {item && !props.mayEdit ? (
        <button type="button" class="secondary" onClick={props.openHistory}>
          History
        </button>
      ) : item ? (
        <ItemActions {...props} item={item} />
      ) : (
        <NewItemActions {...props} />
      )}
    </div>
  );
}

/** An item that exists: save (as pending changes when published), history, share, (un)publish, delete. */
function ItemActions(props: ActionsProps & { item: Item }) {
  const { busy, mayPublish } = props;
  const published = props.item.status === "published";
  return (
    <>
      {published ? (
        <>
          {/* Saving a published item's changes publishes them: only for a role that may publish. */}
          {mayPublish && (
            <button type="submit" disabled={busy}>
              Save and publish changes
            </button>
          )}
          <button type="button" class="secondary" disabled={busy} onClick={() => props.save("pending")}>
            Save as pending changes
          </button>
          {props.item.pendingChanges && (
            <button type="button" class="secondary" disabled={busy} onClick={() => props.confirm("discard")}>
              Discard pending changes
            </button>
          )}
        </>
      ) : (
        <button type="submit" disabled={busy}>
          Save
        </button>
      )}
      <button type="button" class="secondary" disabled={busy} onClick={props.openHistory}>
        History
      </button>
      {props.mayShare && (
        <button type="button" class="secondary" disabled={busy} onClick={props.openShare}>
          Share
        </button>
      )}
      {props.duplicate && (
        <button
          type="button"
          class="secondary"
          disabled={busy || props.dirty}
          aria-describedby={props.dirty ? "duplicate-waits" : undefined}
          onClick={props.duplicate}
        >
          Duplicate
        </button>
      )}
      {mayPublish &&
        (published ? (
          <button type="button" class="secondary" disabled={busy} onClick={() => props.confirm("unpublish")}>
            Unpublish
          </button>
        ) : (
          <button type="button" class="secondary" disabled={busy} onClick={() => props.save(true)}>
            Save and publish
          </button>
        ))}
      {props.mayDelete && (
        <button type="button" class="danger" disabled={busy} onClick={() => props.confirm("delete")}>
          Delete
        </button>
      )}
      {props.duplicate && props.dirty && (
        <p class="muted" id="duplicate-waits">
          Save or undo your changes to duplicate this item.
        </p>
      )}
    </>
  );
}

/** A new item: save it as a draft (the form's submit), or publish it at once. */
function NewItemActions(props: ActionsProps) {
  const { busy, mayPublish } = props;
  return (
    <>
      <button type="submit" class={mayPublish ? "secondary" : undefined} disabled={busy}>
        Save as draft
      </button>
      {mayPublish && (
        <button type="button" disabled={busy} onClick={() => props.save(true)}>
          Save and publish
        </button>
      )}
      <button type="button" class="secondary" onClick={props.cancel}>
        Cancel
      </button>
    </>
  );
}
