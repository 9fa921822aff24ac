/**
 * What opens beside the editor: the item's schedule, its share links and its history
 * (dashboard/src/history/), each a chunk of its own loaded only when shown.
 */
import { lazy, Suspense } from "preact/compat";
import type { Collection, Item } from "../../types";

const HistoryPanel = lazy(() => import("../../history/panel").then((m) => ({ default: m.HistoryPanel })));
const ScheduleForm = lazy(() => import("../../history/schedule-form").then((m) => ({ default: m.ScheduleForm })));
const SharePanel = lazy(() => import("../../history/share-panel").then((m) => ({ default: m.SharePanel })));

export function Schedule(props: { item: Item; collection: Collection; onChanged: (item: Item) => void }) {
  const { item } = props;
  return (
    <Suspense fallback={<p class="muted">Loading the schedule…</p>}>
      <ScheduleForm key={`${item.id}-${item.updatedAt}`} item={item} collectionSlug={props.collection.slug} onChanged={props.onChanged} />
    </Suspense>
  );
}

export function Share(props: { item: Item; collection: Collection; onClose: () => void }) {
  return (
    <Suspense fallback={<p class="muted">Loading sharing…</p>}>
      <SharePanel open={true} collection={props.collection} item={props.item} onClose={props.onClose} />
    </Suspense>
  );
}

export function History(props: {
  item: Item;
  collection: Collection;
  onClose: () => void;
  onRestored: (restored: Item, dropped: string[]) => void;
}) {
  return (
    <Suspense fallback={<p class="muted">Loading the history…</p>}>
      <HistoryPanel open={true} collection={props.collection} item={props.item} onClose={props.onClose} onRestored={props.onRestored} />
    </Suspense>
  );
}
