import { useEffect, useRef, useState } from "preact/hooks";
import { ApiFailure, call, client } from "../api";
import { CAPTURE_REASONS, type Capture } from "../capture-types";
import { hostnameOrigin } from "../hostname-url";
import { PlanGate } from "../plan-gate";
import { RoleGate } from "../role-gate";
import { can, collections, inSite, site } from "../site-state";
import { Confirm, Copy, ErrorNotice, Field, Heading, Notice, type Submit, when } from "../ui";
import { useForm } from "../use-form";
import { SocialImages } from "./seo-images";
import { Preview } from "./seo-preview";

interface ActiveHostname {
  hostname: string;
  sslStatus: string;
}

export function SeoEngine() {
  const s = site.value!;
  const [capture, setCapture] = useState<Capture | null | undefined>(undefined);
  const [hostname, setHostname] = useState<ActiveHostname | null>(null);
  // The capture just made from the form: its outcome is told at the top of the status, where the new page shows.
  const [captured, setCaptured] = useState<{ first: boolean } | null>(null);
  const [stopped, setStopped] = useState(false);
  const load = async () => {
    try {
      // The status reads answer null for "none yet" (the form to capture a first page), not 404.
      setCapture((await call(client.GET("/sites/{siteId}/ssr/capture/status", { params: { path: inSite() } }))).capture);
    } catch {
      setCapture(null);
    }
    call(client.GET("/sites/{siteId}/ssr/custom-hostname/status", { params: { path: inSite() } })).then(
      (r) => setHostname([r.customHostname, r.replacing].find((h) => h?.sslStatus === "active") ?? null),
      () => setHostname(null),
    );
  };
  useEffect(() => void load(), [s.id]);
  if (!s.features.serverRendering) return <PlanGate title="SEO Engine" needs="seo_engine" what="Server-side rendering of your pages" />;
  if (capture === undefined) return <p class="loading">Loading…</p>;
  return (
    <section>
      <Heading>SEO Engine</Heading>
      <p>
        The service keeps <strong>one captured page</strong> of your site as the template, and serves it with your items already in the
        HTML, each item with its own title, description, social card and structured data. A redesign at a new address, or showing another
        collection, needs a new capture.
      </p>
      {capture && (
        <CaptureStatus
          capture={capture}
          captured={captured}
          onChange={(c) => {
            setCaptured(null);
            setCapture(c);
          }}
          onStopped={() => {
            setCaptured(null);
            setStopped(true);
            setCapture(null);
          }}
        />
      )}
      {stopped && !capture && (
        <Notice kind="ok">Rendering stopped: your rendered pages answer “not found”. Capture a page below to start again.</Notice>
      )}
      {capture && <Addresses capture={capture} hostname={hostname?.hostname ?? null} />}
      {/* A new capture is a new preview: nothing of the previous page stays on screen. */}
      {capture && <Preview key={`${capture.capturedAt} ${capture.publicUrl} ${capture.collection ?? ""}`} capture={capture} />}
      {capture && <SocialImages key={`${capture.capturedAt} ${capture.collection ?? ""}`} capture={capture} />}
      <RoleGate permission="seo.manage" what="the SEO Engine's settings">
        <CaptureForm
          existing={capture}
          onCaptured={(c) => {
            setCaptured({ first: capture === null });
            setCapture(c);
          }}
        />
      </RoleGate>
    </section>
  );
}

function CaptureForm(props: { existing: Capture | null; onCaptured: (c: Capture) => void }) {
  const e = props.existing;
  const list = collections.value ?? [];
  const form = useForm(
    {
      pageUrl: e?.pageUrl ?? "",
      publicUrl: e && e.publicUrl !== e.pageUrl ? e.publicUrl : "",
      collection: e?.collection ?? list[0]?.slug ?? "",
      showsList: e?.showsList ?? true,
      seo: e?.seo ?? ({} as Capture["seo"]),
      secret: "",
    },
    ({ pageUrl, publicUrl, collection, showsList, seo, secret }) => {
      const seoBody = Object.fromEntries(Object.entries(seo).filter(([, v]) => v !== "" && v !== undefined));
      return call(
        client.PUT("/sites/{siteId}/ssr/capture", {
          params: { path: inSite() },
          body: {
            pageUrl: pageUrl.trim(),
            ...(publicUrl.trim() ? { publicUrl: publicUrl.trim() } : {}),
            collection,
            showsList,
            ...(Object.keys(seoBody).length ? { seo: seoBody } : {}),
            ...(secret ? { webhookSigningSecret: secret } : {}),
          },
        }),
      );
    },
    { onSaved: (r) => props.onCaptured(r.capture) },
  );
  const { pageUrl, publicUrl, collection, showsList, seo, secret } = form.values;
  const { error, errors } = form;
  const chosen = list.find((c) => c.slug === collection);
  const fields = chosen?.fields ?? [];
  // The fields the service picks when none is chosen: it decides and sends them with the collection.
  const defaults = chosen?.seoDefaults ?? { titleField: null, descriptionField: null, imageField: null, authorField: null };

  // What a capture at another address or of another collection takes away from the current one.
  const [replacing, setReplacing] = useState<{ path: string; collection: string; pages: number; newPath: string } | null>(null);
  const basePathOf = (u: string) => {
    try {
      const p = new URL(u).pathname;
      return p.endsWith("/") ? p : `${p}/`;
    } catch {
      return "";
    }
  };
  const submit = async (ev: Submit) => {
    ev.preventDefault();
    const newPath = basePathOf(publicUrl.trim() || pageUrl.trim());
    if (e && (e.basePath !== newPath || e.collection !== collection)) {
      let published = 0;
      try {
        if (e.collection)
          published = (
            await call(
              client.GET("/sites/{siteId}/collections/{slug}/items", {
                params: { path: inSite({ slug: e.collection }), query: { status: "published", limit: 1 } },
              }),
            )
          ).total;
      } catch {
        published = 0;
      }
      setReplacing({
        path: new URL(e.publicUrl).origin + e.basePath,
        collection: list.find((c) => c.slug === e.collection)?.name ?? e.collection ?? "a deleted collection",
        pages: published + (e.showsList ? 1 : 0),
        newPath,
      });
      return;
    }
    captureNow();
  };
  const captureNow = () => void form.submit();
  const failure = error instanceof ApiFailure && error.error.code === "capture_failed" ? error : null;
  const reason = failure ? String(failure.error.details?.reason ?? "") : "";
  const seoField = (key: keyof typeof defaults, label: string) => (
    <Field label={label} hint={`Automatic: ${defaults[key] ?? "none"}`}>
      {(id, d) => (
        <select
          id={id}
          value={seo[key] ?? ""}
          aria-describedby={d}
          onChange={(ev) => form.set("seo", { ...seo, [key]: ev.currentTarget.value })}
        >
          <option value="">Automatic ({defaults[key] ?? "none"})</option>
          {fields.map((f) => (
            <option key={f.key} value={f.key}>
              {f.key}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
  return (
    <form class="card form" onSubmit={submit}>
      <h2>{e ? "Capture again" : "Capture your page"}</h2>
      {failure ? (
        <Notice kind="error">
          <p>
            <strong>The page could not be captured.</strong>{" "}
            {CAPTURE_REASONS[reason] ?? failure.error.message.replace(/^Cannot capture: /, "The page cannot serve as the template: ")}
          </p>
          {e && <p>Your previous capture stays in use.</p>}
        </Notice>
      ) : (
        <ErrorNotice error={error} />
      )}
      <Field
        label="Page URL"
        hint="A published page of your site that shows the list widget and includes the embed script."
        error={errors.pageUrl}
      >
        {(id, d) => (
          <input
            id={id}
            type="url"
            required
            value={pageUrl}
            aria-describedby={d}
            onInput={(ev) => form.set("pageUrl", ev.currentTarget.value)}
          />
        )}
      </Field>
      <Field
        label="Public URL"
        hint="Where visitors see this page, if not at the Page URL (defaults to the Page URL). Its path is where the rendered pages live."
        error={errors.publicUrl}
      >
        {(id, d) => (
          <input
            id={id}
            type="url"
            value={publicUrl}
            placeholder={pageUrl}
            aria-describedby={d}
            onInput={(ev) => form.set("publicUrl", ev.currentTarget.value)}
          />
        )}
      </Field>
      <Field label="Collection" hint="The collection the page's list shows; every item of it gets a page." error={errors.collection}>
        {(id, d) => (
          <select
            id={id}
            required
            value={collection}
            aria-describedby={d}
            onChange={(ev) => form.set("collection", ev.currentTarget.value)}
          >
            {list.map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="field">
        <label class="check">
          <input type="checkbox" checked={showsList} onChange={(ev) => form.set("showsList", ev.currentTarget.checked)} />
          This URL shows a list of items
        </label>
        <p class="hint">Unchecked: the page is only a template for item pages, and its own address answers “not found”.</p>
      </div>
      <details>
        <summary>Advanced: which fields feed titles, descriptions and images</summary>
        <div class="row">
          {seoField("titleField", "Title field")}
          {seoField("descriptionField", "Description field")}
          {seoField("imageField", "Image field")}
          {seoField("authorField", "Author field")}
        </div>
        <div class="row">
          <Field label="Site name" hint="Automatic: the page's og:site_name, else the site's name">
            {(id, d) => (
              <input
                id={id}
                maxLength={200}
                value={seo.siteName ?? ""}
                aria-describedby={d}
                onInput={(ev) => form.set("seo", { ...seo, siteName: ev.currentTarget.value })}
              />
            )}
          </Field>
          <Field label="Publisher" hint="Named in each article's structured data; automatic: none">
            {(id, d) => (
              <input
                id={id}
                maxLength={200}
                value={seo.publisher ?? ""}
                aria-describedby={d}
                onInput={(ev) => form.set("seo", { ...seo, publisher: ev.currentTarget.value })}
              />
            )}
          </Field>
          <Field label="Items in feeds" hint="1–500; automatic: 50">
            {(id, d) => (
              <input
                id={id}
                type="number"
                min={1}
                max={500}
                value={seo.feedItems ?? ""}
                aria-describedby={d}
                onInput={(ev) =>
                  form.set("seo", { ...seo, feedItems: ev.currentTarget.value ? Number(ev.currentTarget.value) : undefined })
                }
              />
            )}
          </Field>
          <Field
            label="Webhook signing secret (optional)"
            hint="Webflow's signing secret for the Site publish webhook, so its signed calls are accepted; at least 8 characters. Not needed when the builder signs with the secret shown above."
          >
            {(id, d) => (
              <input
                id={id}
                type="password"
                autoComplete="off"
                value={secret}
                aria-describedby={d}
                onInput={(ev) => form.set("secret", ev.currentTarget.value)}
              />
            )}
          </Field>
        </div>
      </details>
      <button type="submit" disabled={form.pending}>
        {form.pending ? "Capturing…" : e ? "Capture again" : "Capture page"}
      </button>
      <Confirm
        open={replacing !== null}
        title="Replace the captured page?"
        confirmLabel="Replace and stop serving these pages"
        danger
        onClose={(ok) => {
          setReplacing(null);
          if (ok) captureNow();
        }}
      >
        {replacing && (
          <>
            <p>
              The service keeps one captured page. This capture replaces the current one, and these stop being served at once (visitors and
              crawlers get “not found” there):
            </p>
            <ul>
              <li>
                Address: <code>{replacing.path}</code> and every page under it
              </li>
              <li>Collection: {replacing.collection}</li>
              <li>
                {replacing.pages} page{replacing.pages === 1 ? "" : "s"} (
                {e?.showsList ? "the list page and each published item" : "each published item"}), with their sitemap and feeds
              </li>
            </ul>
            <p>
              Rendered pages then live under <code>{replacing.newPath}</code>.
            </p>
          </>
        )}
      </Confirm>
    </form>
  );
}

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

function CaptureStatus(props: {
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
  const [rotating, setRotating] = useState(false);
  const [rotated, setRotated] = useState(false);
  const [stopping, setStopping] = useState(false);
  // Refreshing and rotating change the capture: only for roles that may (the API refuses the others).
  const mayManage = can("seo.manage");
  const rotate = async () => {
    setError(null);
    setRotated(false);
    try {
      props.onChange((await call(client.POST("/sites/{siteId}/ssr/webhook-secret", { params: { path: inSite() } }))).capture);
      setRotated(true);
    } catch (err) {
      setError(err);
    }
  };
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
      <h3>Site Publish webhook</h3>
      <p class="token">
        URL: <code tabIndex={0}>{c.webhookUrl}</code> <Copy text={c.webhookUrl} label="Copy the webhook URL" />
      </p>
      {/* The secret is shown only to roles that may change the capture (the API leaves it out for the others). */}
      {c.webhookSecret && (
        <p class="token">
          Signing secret: <code tabIndex={0}>{c.webhookSecret}</code>{" "}
          <Copy text={c.webhookSecret} label="Copy the webhook signing secret" />
        </p>
      )}
      <p class="muted">
        Every call must be signed, or it is refused: the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature) with the
        signing secret above, or with Webflow&apos;s own signature (x-webflow-signature), which needs Webflow&apos;s signing secret pasted
        under Advanced below. Each delivery is accepted once, within 5 minutes of its timestamp.
        {c.webhookLegacyUrl
          ? " This webhook still accepts its old address with the secret in it, until you rotate the secret: every call to that address writes the secret into the service's request logs, so rotate it and give your site builder the address above."
          : ""}
      </p>
      {rotated && <Notice kind="ok">New secret made: update the webhook in your site builder with the URL and secret above.</Notice>}
      {mayManage && (
        <button type="button" class="secondary" onClick={() => setRotating(true)}>
          Rotate webhook secret
        </button>
      )}
      <Confirm
        open={rotating}
        title="Rotate the webhook secret?"
        confirmLabel="Rotate secret"
        danger
        onClose={(ok) => {
          setRotating(false);
          if (ok) void rotate();
        }}
      >
        <p>Calls signed with the current secret, and the old address with the secret in it, stop working at once.</p>
      </Confirm>
      <ol>
        <li>
          In your site builder, open the site's settings and find <strong>Integrations → Webhooks</strong>.
        </li>
        <li>
          Add a webhook for the <strong>Site publish</strong> event and paste the URL above.
        </li>
        <li>
          Signing: if the builder lets you give the webhook a secret (Standard Webhooks), give it the signing secret above. If it shows its
          own signing secret instead (Webflow), paste that under <strong>Webhook signing secret</strong> in Advanced below and capture
          again: it lets the service check Webflow&apos;s signature. Webflow&apos;s signing secret is{" "}
          <strong>{c.webhookSigning === "configured" ? "pasted" : "not pasted yet, so only Standard Webhooks calls are accepted"}</strong>.
        </li>
      </ol>
      <p class="muted">Every publish in the builder then refreshes the template within seconds.</p>
    </div>
  );
}

function Addresses(props: { capture: Capture; hostname: string | null }) {
  const c = props.capture;
  const origin = props.hostname ? hostnameOrigin(props.hostname) : new URL(c.publicUrl).origin;
  const base = props.hostname ? "/" : c.basePath;
  const first = collections.value?.find((x) => x.slug === c.collection);
  const docs = ["sitemap.xml", "rss.xml", "feed.json"];
  const last = c.documents.lastBuild;
  return (
    <div class="card">
      <h2>Your rendered pages</h2>
      <p class="muted">
        {props.hostname
          ? `On your custom domain ${props.hostname}.`
          : "Through your reverse proxy (or the page's own site) at the public URL."}
      </p>
      <ul>
        {c.showsList && (
          <li>
            List page: <code>{`${origin}${base}`}</code>
          </li>
        )}
        <li>
          An item page: <code>{`${origin}${base}<item-slug>`}</code>
          {first && <span class="muted"> (the item's slug from {first.name})</span>}
        </li>
        {docs.map((d) => (
          <li key={d}>
            <code>{`${origin}${base}${d}`}</code>
          </li>
        ))}
      </ul>
      <p class="muted">
        Sitemap and feeds{" "}
        {last ? `last rebuilt ${when(last.at)} (${last.urls} addresses, ${last.feedItems} feed items)` : "are rebuilt after every publish"}.
      </p>
    </div>
  );
}
