/**
 * The captured page's Site Publish webhook: its address and signing secret, rotating the secret,
 * and how to set it up in the site builder. A failed rotation is told by the status above
 * (`onError`), with the capture's other failures.
 */
import { useState } from "preact/hooks";
import { call, client } from "../../api";
import type { Capture } from "../../capture-types";
import { inSite } from "../../site-state";
import { Confirm, Copy, Notice } from "../../ui";

export function Webhook(props: {
  capture: Capture;
  mayManage: boolean;
  onChange: (c: Capture) => void;
  onError: (error: unknown) => void;
}) {
  const c = props.capture;
  const [rotating, setRotating] = useState(false);
  const [rotated, setRotated] = useState(false);
  const rotate = async () => {
    props.onError(null);
    setRotated(false);
    try {
      props.onChange((await call(client.POST("/sites/{siteId}/ssr/webhook-secret", { params: { path: inSite() } }))).capture);
      setRotated(true);
    } catch (err) {
      props.onError(err);
    }
  };
  return (
    <>
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
      {props.mayManage && (
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
    </>
  );
}
