/** The editor's confirmations: discarding pending changes, deleting the item, unpublishing it. */
import type { Item } from "../../types";
import { Confirm } from "../../ui";
import type { Confirming } from "./actions";

export function EditorConfirms(props: {
  confirming: Confirming | null;
  /** Closes the open confirmation; `ok` when the change was confirmed. */
  onClose: (what: Confirming, ok: boolean) => void;
  item: Item | null;
  dirty: boolean;
}) {
  const { confirming } = props;
  return (
    <>
      <Confirm
        open={confirming === "discard"}
        title="Discard the pending changes?"
        confirmLabel="Discard pending changes"
        danger
        onClose={(ok) => props.onClose("discard", ok)}
      >
        <p>The editor goes back to the live version. The discarded changes stay in the item's history.</p>
      </Confirm>
      <Confirm
        open={confirming === "delete"}
        title="Delete this item?"
        confirmLabel="Delete item"
        danger
        onClose={(ok) => props.onClose("delete", ok)}
      >
        <p>The item is removed from your site and the content API at once. For 30 days you can undo the delete from the items list.</p>
      </Confirm>
      <Confirm
        open={confirming === "unpublish"}
        title="Unpublish this item?"
        confirmLabel="Unpublish"
        onClose={(ok) => props.onClose("unpublish", ok)}
      >
        <p>Visitors stop seeing it within seconds; it stays here as a draft{props.dirty ? ", with your unsaved changes saved" : ""}.</p>
        {props.item?.schedule && <p>Unpublishing by hand cancels the item's schedule.</p>}
      </Confirm>
    </>
  );
}
