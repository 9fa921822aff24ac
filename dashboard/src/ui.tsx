/** Small building blocks every screen shares: labelled fields, buttons, notices, confirmations. */
import type { ComponentChildren, Ref } from "preact";
import { useEffect, useId, useRef, useState } from "preact/hooks";
import { ApiFailure } from "./api";
import { inWords } from "./time-zone";

export function Field(props: {
  label: string;
  hint?: string;
  error?: string | undefined;
  /** What to do about the error (a link), shown after it. */
  errorAction?: ComponentChildren;
  children: (id: string, describedBy: string | undefined) => ComponentChildren;
}) {
  const id = useId();
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = props.error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div class={props.error ? "field has-error" : "field"}>
      <label for={id}>{props.label}</label>
      {props.children(id, describedBy)}
      {props.hint && (
        <p class="hint" id={hintId}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p class="error" id={errorId}>
          {props.error}
          {props.errorAction && <> {props.errorAction}</>}
        </p>
      )}
    </div>
  );
}

export function Notice(props: { kind?: "error" | "ok" | "info"; children: ComponentChildren; boxRef?: Ref<HTMLDivElement> }) {
  return (
    <div ref={props.boxRef} class={`notice ${props.kind ?? "info"}`} role={props.kind === "error" ? "alert" : "status"}>
      {props.children}
    </div>
  );
}

/** What went wrong, in words, from any thrown value. */
export function explain(err: unknown): string {
  // Field problems are shown next to their fields; the summary only points there.
  if (err instanceof ApiFailure && Object.keys(err.fieldErrors).length > 0) return "Some fields need attention: see the messages below.";
  if (err instanceof ApiFailure) return err.error.message;
  return "Something went wrong in the dashboard. Reload the page and try again.";
}

export function ErrorNotice(props: { error: unknown }) {
  const message = props.error ? explain(props.error) : null;
  const box = useRef<HTMLDivElement>(null);
  // A refusal of a long form's save is printed at the form's top, far above the button pressed:
  // each new message is brought into view (screen readers hear it as an alert).
  useEffect(() => {
    if (message) box.current?.scrollIntoView({ block: "nearest" });
  }, [message]);
  return message ? (
    <Notice kind="error" boxRef={box}>
      {message}
    </Notice>
  ) : null;
}

export function Copy(props: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      class="secondary small"
      // The visible word must stay part of the name (axe: label-content-name-mismatch once it says "Copied").
      aria-label={
        copied ? (/^Copy\b/.test(props.label) ? props.label.replace(/^Copy\b/, "Copied") : `Copied: ${props.label}`) : props.label
      }
      onClick={async () => {
        await navigator.clipboard?.writeText(props.text).catch(() => undefined);
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      {copied ? "Copied" : "Copy"}
    </button>
  );
}

export function CodeBlock(props: { code: string; label: string }) {
  return (
    <div class="code">
      <div class="code-bar">
        <span>{props.label}</span>
        <Copy text={props.code} label={`Copy ${props.label}`} />
      </div>
      <pre tabIndex={0} aria-label={props.label}>
        <code>{props.code}</code>
      </pre>
    </div>
  );
}

/**
 * A `<dialog>` shown modal while `open`. The focus goes back to whatever opened it when it closes
 * or is unmounted (Escape included): a dialog removed while still open would drop it to <body>.
 */
export function useModal(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const giveBack = () => {
    const o = opener.current;
    opener.current = null;
    if (o?.isConnected) o.focus();
  };
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      d.showModal();
    }
    if (!open) {
      if (d.open) d.close();
      giveBack();
    }
  }, [open]);
  useEffect(() => {
    // The native close (Escape included) gives the focus back at once: the re-render that unmounts the
    // dialog may come later, and until then the focus would sit on <body>.
    const d = ref.current;
    d?.addEventListener("close", giveBack);
    return () => d?.removeEventListener("close", giveBack);
  }, []);
  useEffect(
    () => () => {
      // Unmounted (its screen closed it by no longer rendering it): not modal any more, then the focus back.
      if (ref.current?.open) ref.current.close();
      giveBack();
    },
    [],
  );
  return ref;
}

/** A modal question with the consequences spelled out; resolves true when confirmed. */
export function Confirm(props: {
  open: boolean;
  title: string;
  confirmLabel: string;
  danger?: boolean;
  onClose: (confirmed: boolean) => void;
  children: ComponentChildren;
}) {
  const ref = useModal(props.open);
  const titleId = useId();
  // Closed at once, not on the next render: the page behind is usable the moment the choice is made.
  const close = (confirmed: boolean) => {
    ref.current?.close();
    props.onClose(confirmed);
  };
  return (
    <dialog ref={ref} aria-labelledby={titleId} onCancel={() => props.onClose(false)}>
      <h2 id={titleId}>{props.title}</h2>
      <div class="dialog-body">{props.children}</div>
      <div class="actions">
        <button type="button" class="secondary" onClick={() => close(false)}>
          Cancel
        </button>
        <button type="button" class={props.danger ? "danger" : ""} onClick={() => close(true)}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

export function Heading(props: { children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <div class="heading">
      <h1 tabIndex={-1}>{props.children}</h1>
      {props.actions && <div class="actions">{props.actions}</div>}
    </div>
  );
}

export function Pager(props: { page: number; totalPages: number; onPage: (p: number) => void }) {
  if (props.totalPages <= 1) return null;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="secondary" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        Previous page
      </button>
      <span>
        Page {props.page} of {props.totalPages}
      </span>
      <button type="button" class="secondary" disabled={props.page >= props.totalPages} onClick={() => props.onPage(props.page + 1)}>
        Next page
      </button>
    </nav>
  );
}

/** A time in the viewer's zone, in words as the schedule and history panels write it ("Sun, 29 Nov 2026, 02:48"); "—" for none. */
export const when = (iso: string | null | undefined): string => (iso ? inWords(Date.parse(iso)) : "—");

export type Submit = Event;
