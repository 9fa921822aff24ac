/**
 * The captured page: the outcome of the capture just made, what the page shows and when it was
 * fetched, Refresh now and Stop rendering, then its publish webhook (webhook.tsx).
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { call, client } from "../../api";
import type { Capture } from "../../capture-types";
import { can, inSite } from "../../site-state";
import { Confirm, ErrorNotice, Notice, when } from "../../ui";
import { Webhook } from "./webhook";

/** Where the last refresh came from, in words. */
const TRIGGERS: Record<NonNullable<Capture["lastRefresh"]>["trigger"], string> = {
  capture: "capture",
  manual: "Refresh now",
  webhook: "publish webhook",
  nightly: "nightly refresh",
};

function lastRefreshText(c: Capture): string {
  const last = c.lastRefresh;
  if (!last) return "none yet";
  if (!last.ok) return `${when(last.at)} (${TRIGGERS[last.trigger]}): failed, the previous template stays. ${last.error ?? ""}`.trim();
  // The fetch that made the capture is not a refresh of anything: it is the page as first captured.
  if (last.trigger === "capture") return "none since the capture";
  return `${when(last.at)} (${TRIGGERS[last.trigger]}): the page was fetched again`;
}

export function CaptureStatus(props: {
  capture: Capture;
  captured: { first: boolean } | null;
  onChange: (c: Capture) => void;
  onStopped: () => void;
}) {
  const c = props.capture;
  const outcome = useRef<HTMLDivElement>(null);
  // The form is at the bottom of the screen: the outcome of a capture is brought into view up here.
  useEffect(() => {
    if (props.captured) outcome.current?.scrollIntoView({ block: "start" });
  }, [props.captured]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [refreshed, setRefreshed] = useState(false);
  const [stopping, setStopping] = useState(false);
  // Refreshing and rotating change the capture: only for roles that may (the API refuses the others).
  const mayManage = can("seo.manage");
  const refresh = async () => {
    setBusy(true);
    setError(null);
    setRefreshed(false);
    try {
      props.onChange((await call(client.POST("/sites/{siteId}/ssr/refresh", { params: { path: inSite() } }))).capture);
      setRefreshed(true);
    } catch (err) {
      setError(err);
      // A failed refresh is recorded too: the status shows it (and when) without a reload.
      try {
        props.onChange((await call(client.GET("/sites/{siteId}/ssr/capture", { params: { path: inSite() } }))).capture);
      } catch {
        // The refusal above already says what went wrong.
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="card">
      <h2>Captured page</h2>
      <div ref={outcome}>
        {props.captured && (
          <Notice kind="ok">
            {props.captured.first
              ? "Captured for the first time. Your pages are now rendered from this page."
              : "Captured again. Your pages are now rendered from this page."}
          </Notice>
        )}
        {c.warnings.length > 0 && (
          <Notice kind="error">
            <p>
              <strong>
                {c.warnings.length === 1 ? "A list on this page shows no items" : "Lists on this page show no items"}, in the rendered pages
                and in the browser:
              </strong>
            </p>
            <ul>
              {c.warnings.map((w) => (
                <li key={w.message}>{w.message}</li>
              ))}
            </ul>
          </Notice>
        )}
      </div>
      <dl class="facts">
        <dt>Page</dt>
        <dd>
          <a href={c.pageUrl}>{c.pageUrl}</a> ({c.collection ?? "collection deleted"}
          {c.showsList ? ", shows the list" : ", item template only"})
        </dd>
        <dt>Captured</dt>
        <dd>{when(c.capturedAt)}</dd>
        <dt>Last refresh</dt>
        <dd>{lastRefreshText(c)}</dd>
        <dt>Next nightly refresh</dt>
        <dd>{when(c.nextRefreshAt)}</dd>
      </dl>
      <ErrorNotice error={error} />
      {refreshed && <Notice kind="ok">Refreshed: the page was fetched again.</Notice>}
      {mayManage && (
        <div class="actions">
          <button type="button" class="secondary" disabled={busy} onClick={() => void refresh()}>
            {busy ? "Refreshing…" : "Refresh now"}
          </button>
          <button type="button" class="danger" disabled={busy} onClick={() => setStopping(true)}>
            Stop rendering
          </button>
        </div>
      )}
      <Confirm
        open={stopping}
        title="Stop rendering your pages?"
        confirmLabel="Stop rendering"
        danger
        onClose={async (ok) => {
          setStopping(false);
          if (!ok) return;
          setError(null);
          try {
            await call(client.DELETE("/sites/{siteId}/ssr/capture", { params: { path: inSite() } }));
            props.onStopped();
          } catch (err) {
            setError(err);
          }
        }}
      >
        <p>
          The captured page is forgotten: your rendered pages, sitemap and feeds answer “not found” from now on, on your reverse proxy and
          on a connected domain alike. Your items stay, and the embed script keeps working on your own pages. Capture a page again to start
          over.
        </p>
      </Confirm>
      <Webhook capture={c} mayManage={mayManage} onChange={props.onChange} onError={setError} />
    </div>
  );
}
