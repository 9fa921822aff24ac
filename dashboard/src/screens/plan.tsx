import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { call, client } from "../api";
import { changeWay, ContactLink, UnsetNotice } from "../plan-change";
import { changeWords, limitWords, PLAN_FEATURES, priceWords } from "../plans";
import { planChange, reloadSite, site } from "../site-state";
import { PLAN_NAMES, type PlanChange, type PlanOffer } from "../types";
import { Confirm, ErrorNotice, Heading, Notice } from "../ui";

export function PlanScreen() {
  const s = site.value!;
  const pc = planChange.value;
  const [asked, setAsked] = useState<PlanOffer | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  if (!pc) return null;
  const way = changeWay();
  const current = pc.plans.find((p) => p.plan === s.plan)!;
  const change = async (to: PlanOffer) => {
    setPending(true);
    setError(null);
    setDone(null);
    try {
      await call(client.PUT("/workspaces/{id}/plan", { params: { path: { id: s.workspaceId } }, body: { plan: to.plan } }));
      // The site's features follow its workspace's plan: read them again, so every screen unlocks at once.
      await reloadSite();
      setDone(`The workspace is now on the ${to.label} plan.`);
    } catch (e) {
      setError(e);
    } finally {
      setPending(false);
    }
  };
  return (
    <section>
      <Heading>Plan</Heading>
      <p>
        This site's workspace is on the <strong>{PLAN_NAMES[s.plan]}</strong> plan. Every site of the workspace has the same plan.
      </p>
      <HowToChange way={way} />
      <div aria-live="polite">{done && <Notice kind="ok">{done}</Notice>}</div>
      <ErrorNotice error={error} />
      <ul class="plan-cards" aria-label="Plans">
        {pc.plans.map((o) => (
          <PlanCard
            key={o.plan}
            offer={o}
            current={o.plan === s.plan}
            currency={pc.currency}
            action={
              way.kind === "switch" && o.plan !== s.plan ? (
                <button
                  type="button"
                  class={rank(pc, o) > rank(pc, current) ? "" : "secondary"}
                  disabled={pending}
                  onClick={() => setAsked(o)}
                >
                  {rank(pc, o) > rank(pc, current) ? "Upgrade" : "Move down"} to {o.label}
                </button>
              ) : way.kind === "contact" && o.plan !== s.plan ? (
                <ContactLink contact={way.contact} plan={o.plan} />
              ) : null
            }
          />
        ))}
      </ul>
      {asked && (
        <ConfirmChange
          from={current}
          to={asked}
          onClose={(yes) => {
            const to = asked;
            setAsked(null);
            if (yes) void change(to);
          }}
        />
      )}
    </section>
  );
}

const rank = (pc: PlanChange, o: PlanOffer): number => pc.plans.findIndex((p) => p.plan === o.plan);

function HowToChange(props: { way: ReturnType<typeof changeWay> }) {
  const w = props.way;
  switch (w.kind) {
    case "switch":
      return <p>Choose a plan below; you see what changes before anything does.</p>;
    case "owner":
      return (
        <Notice kind="info">
          <p>Only the workspace's Owner can change its plan, signed in with their account. Ask them to switch it here.</p>
          {w.contact && (
            <p>
              <ContactLink contact={w.contact}>Questions about plans</ContactLink>
            </p>
          )}
        </Notice>
      );
    case "contact":
      return <p>Plans are changed by the team that runs this service: ask them for the one you want.</p>;
    case "unset":
      return (
        <Notice kind="info">
          <UnsetNotice />
        </Notice>
      );
  }
}

function PlanCard(props: { offer: PlanOffer; current: boolean; currency: string; action: ComponentChildren }) {
  const o = props.offer;
  const price = priceWords(o, props.currency);
  return (
    <li class={props.current ? "card plan-card current" : "card plan-card"} aria-current={props.current ? "true" : undefined}>
      <h2>
        {o.label}
        {props.current && <span class="badge published">Current plan</span>}
      </h2>
      <p class="plan-price">{price ?? <span class="muted">No price listed</span>}</p>
      <ul class="plan-lines">
        {limitWords(o).map((w) => (
          <li key={w}>
            <span class="mark" aria-hidden="true">
              ✓
            </span>
            {w}
          </li>
        ))}
        {PLAN_FEATURES.map((f) => (
          <li key={f.label} class={f.has(o) ? "" : "off"}>
            <span class="mark" aria-hidden="true">
              {f.has(o) ? "✓" : "—"}
            </span>
            {!f.has(o) && <span class="visually-hidden">Not included: </span>}
            {f.label}
          </li>
        ))}
      </ul>
      {props.action && <div class="actions">{props.action}</div>}
    </li>
  );
}

/** The question before a change, with what it adds and what it takes away. */
function ConfirmChange(props: { from: PlanOffer; to: PlanOffer; onClose: (yes: boolean) => void }) {
  const { gained, lost } = changeWords(props.from, props.to);
  const down = lost.length > 0;
  return (
    <Confirm
      open
      title={`Change to the ${props.to.label} plan?`}
      confirmLabel={`Change to ${props.to.label}`}
      danger={down}
      onClose={props.onClose}
    >
      <p>
        Every site of the workspace moves from {props.from.label} to {props.to.label} at once.
      </p>
      {gained.length > 0 && (
        <>
          <h3>What it adds</h3>
          <ul>
            {gained.map((g) => (
              <li key={g}>{g}</li>
            ))}
          </ul>
        </>
      )}
      {down && (
        <>
          <h3>What it takes away</h3>
          <ul>
            {lost.map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
          <p class="muted">
            The change deletes nothing: what the plan no longer allows stops working until the workspace moves up again. A workspace with
            more sites or people than the plan allows cannot move until some are removed.
          </p>
        </>
      )}
    </Confirm>
  );
}
