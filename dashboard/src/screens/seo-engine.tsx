/**
 * The SEO Engine: the one captured page the service renders items into, its status and
 * webhook (seo-engine/capture-status.tsx), its addresses, a preview, social images and the
 * form to capture it (seo-engine/capture-form.tsx).
 */
import { useEffect, useState } from "preact/hooks";
import { call, client } from "../api";
import type { Capture } from "../capture-types";
import { PlanGate } from "../plan-gate";
import { RoleGate } from "../role-gate";
import { inSite, site } from "../site-state";
import { Heading, Notice } from "../ui";
import { Addresses } from "./seo-engine/addresses";
import { CaptureForm } from "./seo-engine/capture-form";
import { CaptureStatus } from "./seo-engine/capture-status";
import { SocialImages } from "./seo-images";
import { RichResults } from "./seo-engine/rich-results";
import { Redirects } from "./seo-engine/redirects";
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
      {capture?.collection && <RichResults capturedAt={capture.capturedAt} />}
      {capture && <Redirects base={hostname ? "/" : new URL(capture.publicUrl).pathname.replace(/[^/]*$/, "")} />}
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
