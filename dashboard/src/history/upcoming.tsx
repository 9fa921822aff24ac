/** The Overview's "Goes live next": the schedule's next publishes and unpublishes, in the viewer's time zone. */
import { call, client } from "../api";
import { href } from "../router";
import { inSite } from "../site-state";
import { ErrorNotice } from "../ui";
import { useLoad } from "../use-load";
import { showInZone, viewerZone } from "../time-zone";

export function GoesLiveNext(props: { siteId: string }) {
  const { data, error } = useLoad(
    () => call(client.GET("/sites/{siteId}/schedule", { params: { path: inSite(), query: { limit: 5 } } })),
    [props.siteId],
  );
  return (
    <div class="card">
      <h2>Goes live next</h2>
      <ErrorNotice error={error} />
      {data && data.upcoming.length === 0 && <p class="muted">Nothing is scheduled. Schedule an item from its editor.</p>}
      <ul class="recent">
        {data?.upcoming.map((u) => (
          <li key={`${u.item.id}-${u.action}`}>
            <a href={href(props.siteId, "items", u.item.collection, u.item.id)}>{u.item.title ?? u.item.slug}</a>{" "}
            <span class="muted">
              {u.action === "publish" ? "goes live" : "is taken down"} {showInZone(u.at)}
            </span>
          </li>
        ))}
      </ul>
      {data && data.upcoming.length > 0 && <p class="hint">Times in your time zone, {viewerZone()}.</p>}
    </div>
  );
}
