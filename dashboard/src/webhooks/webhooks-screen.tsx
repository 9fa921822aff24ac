/**
 * Outbound webhooks: the receivers this site sends signed events to, their secrets (shown once),
 * a test event, and each receiver's last deliveries with Redeliver. Not the SEO Engine's inbound
 * publish webhook, which a site builder calls (SEO Engine screen).
 */
import { Fragment } from "preact";
import { useEffect, useState } from "preact/hooks";
import { call, client } from "../api";
import { can, inSite, roleName } from "../site-state";
import { DataTable } from "../data-table";
import { TextField } from "../form-fields";
import { Confirm, Copy, ErrorNotice, Heading, Notice, when } from "../ui";
import { useForm } from "../use-form";
import { useLoad } from "../use-load";
import type { components } from "../generated/api";

type Endpoint = components["schemas"]["ListWebhookEndpointsResponse"]["endpoints"][number];
type Delivery = components["schemas"]["ListWebhookDeliveriesResponse"]["deliveries"][number];
type EventType = Endpoint["events"][number];

const EVENT_GROUPS: readonly { legend: string; events: readonly { type: EventType; label: string }[] }[] = [
  {
    legend: "Item",
    events: [
      { type: "item.created", label: "Created" },
      { type: "item.updated", label: "Updated" },
      { type: "item.published", label: "Published" },
      { type: "item.unpublished", label: "Unpublished" },
      { type: "item.deleted", label: "Deleted" },
    ],
  },
  {
    legend: "Collection",
    events: [
      { type: "collection.created", label: "Created" },
      { type: "collection.updated", label: "Changed" },
      { type: "collection.deleted", label: "Deleted" },
    ],
  },
  {
    legend: "Other",
    events: [
      { type: "capture.refreshed", label: "SEO Engine page refreshed" },
      { type: "import.finished", label: "Import finished" },
    ],
  },
];

/**
 * Why an endpoint is paused and what resuming does, as the service does it (actors/site/webhooks/):
 * while paused, new events are not queued for it; resuming sends what still waits at once.
 */
const PAUSED_WHY: Record<NonNullable<Endpoint["disabledReason"]>, string> = {
  gone:
    "Paused by the service: the receiver answered 410 Gone, which means “stop sending”, so the deliveries that were waiting were cancelled. " +
    "Events that happen while it is paused are not sent to it. Fix the receiver, then resume: new events are sent again, and a cancelled delivery goes out only if you redeliver it.",
  failing:
    "Paused by the service: a delivery failed every attempt for about three days. Deliveries that were waiting are kept; events that happen while it is paused are not sent to it. " +
    "Fix the receiver, then resume: the waiting deliveries go out at once, and the failed one can be redelivered.",
  owner:
    "Paused. Deliveries that were waiting are kept and go out when you resume; events that happen while it is paused are not sent to it.",
  maker:
    "Paused by the service: the person who added it left the workspace or may no longer manage this site's settings, and this address may be theirs. " +
    "Events that happen while it is paused are not sent to it. Resume it only if the address is one your team controls: it is then yours, and the waiting deliveries go out at once.",
};

const listEndpoints = () => call(client.GET("/sites/{siteId}/webhooks", { params: { path: inSite() } })).then((r) => r.endpoints);

export function Webhooks() {
  // Endpoints and their secrets are the site's settings: a role without them is told who manages them, and nothing is asked for.
  if (!can("site.settings")) {
    return (
      <section>
        <Heading>Webhooks</Heading>
        <Notice kind="info">Your role ({roleName()}) does not manage this site's webhooks: an Administrator or the Owner does.</Notice>
      </section>
    );
  }
  return <WebhookEndpoints />;
}

function WebhookEndpoints() {
  const endpoints = useLoad(listEndpoints, []);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const shown = (url: string, value: string) => setSecret({ url, secret: value });
  return (
    <section>
      <Heading>Webhooks</Heading>
      <p>
        Outbound webhooks tell your other systems (a newsletter tool, a search service, a build hook) what changed on this site. Every event
        is signed by the <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> rules, sent in order per item, and retried for
        about three days until your receiver answers 2xx. (The SEO Engine's <em>publish webhook</em>, which your site builder calls, is on
        the SEO Engine screen.)
      </p>
      <ErrorNotice error={endpoints.error} />
      {secret && (
        <div class="card">
          <Notice kind="ok">
            The signing secret of <Url href={secret.url} /> is below. <strong>Copy it now: you will not see it again.</strong> Your receiver
            verifies each delivery with it.
          </Notice>
          <p class="token">
            <code tabIndex={0}>{secret.secret}</code> <Copy text={secret.secret} label="Copy signing secret" />
          </p>
          <button type="button" class="secondary small" onClick={() => setSecret(null)}>
            I have copied the secret
          </button>
        </div>
      )}
      {endpoints.data?.map((e) => (
        <EndpointCard key={e.id} endpoint={e} onChange={endpoints.reload} onSecret={shown} />
      ))}
      {endpoints.data?.length === 0 && (
        <p class="empty">No endpoints yet. Add your receiver's https:// address below; its signing secret is shown once when you add it.</p>
      )}
      <AddEndpoint
        onAdded={(url, value) => {
          shown(url, value);
          endpoints.reload();
        }}
      />
    </section>
  );
}

function AddEndpoint(props: { onAdded: (url: string, secret: string) => void }) {
  const form = useForm(
    { url: "", description: "", events: ["item.published", "item.unpublished", "item.updated", "item.deleted"] as EventType[] },
    (v) => call(client.POST("/sites/{siteId}/webhooks", { params: { path: inSite() }, body: v })),
    {
      onSaved: (r) => {
        props.onAdded(r.endpoint.url, r.secret);
        form.reset({ url: "", description: "", events: form.values.events });
      },
    },
  );
  const toggle = (type: EventType, on: boolean) =>
    form.set("events", on ? [...form.values.events, type] : form.values.events.filter((t) => t !== type));
  return (
    <form class="card form" onSubmit={form.onSubmit}>
      <h2>Add endpoint</h2>
      <ErrorNotice error={form.error} />
      <TextField
        form={form}
        name="url"
        label="Receiver URL"
        hint="https:// address of your receiver. Private and local addresses are refused (a local run allows them for testing)."
        type="url"
        required
        maxLength={2048}
        placeholder="https://hooks.example.com/content"
      />
      <TextField form={form} name="description" label="Description" hint="Optional: what this receiver is for." maxLength={500} />
      {EVENT_GROUPS.map((g) => (
        <fieldset key={g.legend} class="checks">
          <legend>{g.legend} events</legend>
          {g.events.map((ev) => (
            <label key={ev.type}>
              <input
                type="checkbox"
                checked={form.values.events.includes(ev.type)}
                onChange={(x) => toggle(ev.type, x.currentTarget.checked)}
              />{" "}
              {ev.label} <code class="name">{ev.type}</code>
            </label>
          ))}
        </fieldset>
      ))}
      {form.errors.events && <p class="error">{form.errors.events}</p>}
      <button type="submit" disabled={form.pending || form.values.events.length === 0}>
        Add endpoint
      </button>
    </form>
  );
}

function EndpointCard(props: { endpoint: Endpoint; onChange: () => void; onSecret: (url: string, secret: string) => void }) {
  const e = props.endpoint;
  const path = inSite({ endpointId: e.id });
  const [error, setError] = useState<unknown>(null);
  const [confirm, setConfirm] = useState<"delete" | "rotate" | null>(null);
  const [n, setN] = useState(0);
  const log = useLoad(
    () => call(client.GET("/sites/{siteId}/webhooks/{endpointId}/deliveries", { params: { path, query: { limit: 10 } } })),
    [e.id, n],
  );
  // Look again while a delivery is on its way or due within a minute (the first retry comes after 5 s).
  const waiting =
    log.data?.deliveries.some(
      (d) =>
        e.state === "enabled" &&
        d.state === "pending" &&
        d.waitsFor === null &&
        (d.attempts === 0 || d.lastAttemptAt === null || (d.nextAt !== null && Date.parse(d.nextAt) - Date.now() < 60_000)),
    ) ?? false;
  useEffect(() => {
    if (!waiting) return;
    const t = setTimeout(() => setN((x) => x + 1), 1000);
    return () => clearTimeout(t);
  }, [waiting, log.data]);
  const act = async (what: () => Promise<unknown>) => {
    setError(null);
    try {
      await what();
      setN((x) => x + 1);
      props.onChange();
    } catch (err) {
      setError(err);
    }
  };
  const test = () => act(() => call(client.POST("/sites/{siteId}/webhooks/{endpointId}/test", { params: { path } })));
  const setEnabled = (enabled: boolean) =>
    act(() => call(client.PATCH("/sites/{siteId}/webhooks/{endpointId}", { params: { path }, body: { enabled } })));
  const rotate = () =>
    act(async () => {
      const r = await call(client.POST("/sites/{siteId}/webhooks/{endpointId}/rotate-secret", { params: { path }, body: {} }));
      props.onSecret(r.endpoint.url, r.secret);
    });
  const remove = () => act(() => call(client.DELETE("/sites/{siteId}/webhooks/{endpointId}", { params: { path } })));
  const redeliver = (d: Delivery) =>
    act(() =>
      call(
        client.POST("/sites/{siteId}/webhooks/{endpointId}/deliveries/{eventId}/redeliver", {
          params: { path: { ...path, eventId: d.eventId } },
        }),
      ),
    );
  return (
    <article class="card" aria-label={`Endpoint ${e.url}`}>
      <h2>
        <Url href={e.url} />{" "}
        <span class={`badge ${e.state === "enabled" ? "published" : "draft"}`}>{e.state === "enabled" ? "Active" : "Paused"}</span>
      </h2>
      {e.description && <p>{e.description}</p>}
      {/* Each event type is one chip that wraps as a whole: a name broken mid-word reads as two names. */}
      <p class="events-line">
        <span>Events:</span>
        {e.events.map((t) => (
          <code key={t} class="name">
            {t}
          </code>
        ))}
      </p>
      {e.previousSecretUntil && <p>The previous secret also signs until {when(e.previousSecretUntil)}.</p>}
      {e.state === "disabled" && e.disabledReason && (
        <Notice kind={e.disabledReason === "owner" ? "info" : "error"}>
          {PAUSED_WHY[e.disabledReason]}
          {e.disabledReason === "maker" && e.disabledMaker && ` It was added by ${e.disabledMaker}.`}
        </Notice>
      )}
      <ErrorNotice error={error} />
      <div class="actions">
        <button type="button" onClick={() => void test()} aria-label={`Send test event to ${e.url}`}>
          Send test event
        </button>
        {e.state === "enabled" ? (
          <button type="button" class="secondary" onClick={() => void setEnabled(false)} aria-label={`Pause ${e.url}`}>
            Pause
          </button>
        ) : (
          <button type="button" onClick={() => void setEnabled(true)} aria-label={`Resume ${e.url}`}>
            Resume
          </button>
        )}
        <button type="button" class="secondary" onClick={() => setConfirm("rotate")} aria-label={`Rotate secret of ${e.url}`}>
          Rotate secret
        </button>
        <button type="button" class="danger" onClick={() => setConfirm("delete")} aria-label={`Delete ${e.url}`}>
          Delete
        </button>
      </div>
      <h3>Last deliveries</h3>
      <ErrorNotice error={log.error} />
      <DataTable
        label={`Last deliveries to ${e.url}`}
        columns={["Event", "State", "Attempts", "Answer", "Duration", "Response (first bytes)", "Next attempt", { hidden: "Actions" }]}
        rows={log.data?.deliveries ?? null}
        error={log.error}
        empty="Nothing sent yet. Send a test event to try the receiver."
        row={(d) => (
          <tr key={d.eventId}>
            <td>
              <code class="name">{d.type}</code>
              <br />
              <small>{when(d.createdAt)}</small>
            </td>
            <td>{d.waitsFor ? "waiting" : d.state}</td>
            <td>{d.attempts}</td>
            <td>{d.lastStatus ?? d.lastError ?? "—"}</td>
            <td>{d.lastDurationMs === null ? "—" : `${d.lastDurationMs} ms`}</td>
            <td>{d.lastResponseHead ? <code class="response-head">{d.lastResponseHead.slice(0, 120)}</code> : "—"}</td>
            <td>
              {d.waitsFor ? (
                <>
                  After the earlier <code>{d.waitsFor.type}</code> of this item is delivered (events of one item go out in order)
                </>
              ) : e.state !== "enabled" && d.nextAt ? (
                "When you resume"
              ) : d.nextAt ? (
                when(d.nextAt)
              ) : (
                "—"
              )}
            </td>
            <td>
              <button
                type="button"
                class="secondary small"
                onClick={() => void redeliver(d)}
                aria-label={`Redeliver ${d.type} ${d.eventId}`}
              >
                Redeliver
              </button>
            </td>
          </tr>
        )}
      />
      <button type="button" class="secondary small" onClick={() => setN((x) => x + 1)} aria-label={`Refresh deliveries of ${e.url}`}>
        Refresh deliveries
      </button>
      <Confirm
        open={confirm !== null}
        title={confirm === "delete" ? "Delete this endpoint?" : "Rotate the signing secret?"}
        confirmLabel={confirm === "delete" ? "Delete endpoint" : "Rotate secret"}
        danger={confirm === "delete"}
        onClose={(ok) => {
          const what = confirm;
          setConfirm(null);
          if (ok && what === "delete") void remove();
          if (ok && what === "rotate") void rotate();
        }}
      >
        {confirm === "delete" ? (
          <p>
            Nothing more is sent to <Url href={e.url} />, and its delivery log is deleted.
          </p>
        ) : (
          <p>
            A new secret is shown once. For 24 hours every delivery carries a signature with the old secret too, so your receiver can
            switch.
          </p>
        )}
      </Confirm>
    </article>
  );
}

/**
 * A receiver's address, which may be wider than a phone: it breaks after a `/`, `.`, `?`, `&` or
 * `=` (where a reader expects a new part), never at a hyphen inside a part, where the break would
 * read as a hyphenated word. Only a part too long for a line on a phone may break anywhere.
 */
function Url(props: { href: string }) {
  const parts = props.href.split(/(?<=[/.?&=])/);
  return (
    <code class="url">
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          <span class={p.length <= WHOLE_PART ? "part" : undefined}>{p}</span>
        </Fragment>
      ))}
    </code>
  );
}

/** Characters of a part kept on one line: about what a 320 px line holds of the card's heading. */
const WHOLE_PART = 28;
