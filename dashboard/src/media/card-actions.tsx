/**
 * What a Media card does to its entry besides alt text and delete: the focal point (click the
 * preview, or move it with the arrow keys), Replace keeping the id, and Copy into library for
 * media added by URL.
 */
import { useRef, useState } from "preact/hooks";
import { call, client } from "../api";
import { inSite } from "../site-state";
import type { MediaEntry } from "../types";
import { ErrorNotice, Notice } from "../ui";
import { uploadFile } from "./upload";

type Focal = { x: number; y: number };
const STEP = 0.05;
const clamp = (n: number) => Math.min(1, Math.max(0, Math.round(n * 1000) / 1000));
const pct = (n: number) => `${Math.round(n * 100)}%`;

/**
 * The preview as a control: a click sets the focal point where it lands; with the keyboard, the
 * arrow keys move it 5% at a time. Each change is saved at once (every item showing it follows).
 */
export function FocalPicker(props: { m: MediaEntry; name: string; alt: string }) {
  const [focal, setFocal] = useState<Focal | null>(props.m.focal ?? null);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  // Saves run one after another, so the last key pressed is the point that stays.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const save = (next: Focal | null) => {
    setFocal(next);
    setError(null);
    setSaved(false);
    queue.current = queue.current.then(async () => {
      try {
        await call(
          client.PATCH("/sites/{siteId}/media/{mediaId}", {
            params: { path: inSite({ mediaId: props.m.mediaId }) },
            body: { focal: next },
          }),
        );
        setSaved(true);
      } catch (e) {
        setError(e);
      }
    });
    return queue.current;
  };
  const at = focal ?? { x: 0.5, y: 0.5 };
  const onKey = (e: KeyboardEvent) => {
    const move: Record<string, [number, number]> = {
      ArrowLeft: [-STEP, 0],
      ArrowRight: [STEP, 0],
      ArrowUp: [0, -STEP],
      ArrowDown: [0, STEP],
    };
    const d = move[e.key];
    if (!d) return;
    e.preventDefault();
    void save({ x: clamp(at.x + d[0]), y: clamp(at.y + d[1]) });
  };
  return (
    <div class="focal">
      <button
        type="button"
        class="focal-pick"
        aria-label={`Focal point of ${props.name}: click the point crops must keep, or move it with the arrow keys`}
        aria-describedby={`focal-${props.m.mediaId}`}
        onClick={(e) => {
          const box = e.currentTarget.getBoundingClientRect();
          // A click from the keyboard (Enter, Space) has no position: it keeps the point where it is.
          if (e.detail === 0 || box.width === 0) return;
          void save({ x: clamp((e.clientX - box.left) / box.width), y: clamp((e.clientY - box.top) / box.height) });
        }}
        onKeyDown={onKey}
      >
        <img src={props.m.url} srcset={props.m.srcset} sizes="300px" alt={props.alt} loading="lazy" />
        <span class="focal-dot" style={{ left: pct(at.x), top: pct(at.y) }} aria-hidden="true" />
      </button>
      <p class="muted small-text" id={`focal-${props.m.mediaId}`}>
        Focal point: {focal ? `${pct(focal.x)} across, ${pct(focal.y)} down` : "the centre"}
        {focal && (
          <>
            {" · "}
            <button type="button" class="link" onClick={() => void save(null)}>
              Reset the focal point of {props.name} to the centre
            </button>
          </>
        )}
      </p>
      {saved && <Notice kind="ok">Focal point saved.</Notice>}
      <ErrorNotice error={error} />
    </div>
  );
}

/** Replace keeping the id: a file chooser (reachable by keyboard like any input) and the upload's progress. */
export function ReplaceFile(props: { m: MediaEntry; name: string; onReplaced: () => void }) {
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const id = `replace-${props.m.mediaId}`;
  const replace = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setDone(null);
    setProgress({ loaded: 0, total: file.size });
    try {
      const r = await uploadFile(inSite().siteId, file, (loaded, total) => setProgress({ loaded, total }), props.m.mediaId).done;
      setDone(r.duplicate ? "That is the same file: nothing changed." : "Replaced: every item showing it now shows the new file.");
      props.onReplaced();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setProgress(null);
    }
  };
  return (
    <div class="replace-media">
      <label for={id} class="small-text">
        Replace the file of {props.name}
      </label>
      <input
        id={id}
        type="file"
        accept={
          props.m.type?.startsWith("video/") ? "video/mp4,video/webm" : props.m.type === "application/pdf" ? "application/pdf" : "image/*"
        }
        onChange={(e) => void replace(e.currentTarget.files?.[0])}
      />
      {progress && <progress max={progress.total} value={progress.loaded} aria-label={`Replacing ${props.name}`} />}
      {done && <Notice kind="ok">{done}</Notice>}
      {error && <Notice kind="error">{error}</Notice>}
    </div>
  );
}

/** Media added by URL: fetch it into the library, and point every item that showed the URL at the stored file. */
export function CopyIntoLibrary(props: { m: MediaEntry; name: string; onCopied: (m: MediaEntry) => void }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const copy = async () => {
    setPending(true);
    setError(null);
    try {
      const r = await call(client.POST("/sites/{siteId}/media/{mediaId}/copy", { params: { path: inSite({ mediaId: props.m.mediaId }) } }));
      const left = r.notRepointed.length;
      setDone(
        `Copied into the library${r.duplicate ? " (the same file was already there)" : ""}; ${r.repointed} item${r.repointed === 1 ? "" : "s"} now show${r.repointed === 1 ? "s" : ""} the stored file.` +
          (left
            ? ` ${left} item${left === 1 ? "" : "s"} you cannot edit still show${left === 1 ? "s" : ""} the address: ${r.notRepointed.map((i) => i.slug).join(", ")}.`
            : ""),
      );
      props.onCopied(r.media);
    } catch (e) {
      setError(e);
    } finally {
      setPending(false);
    }
  };
  return (
    <div class="copy-media">
      <button type="button" class="secondary small" disabled={pending} onClick={() => void copy()}>
        {pending ? `Copying ${props.name}…` : `Copy ${props.name} into the library`}
      </button>
      {done && <Notice kind="ok">{done}</Notice>}
      <ErrorNotice error={error} />
    </div>
  );
}
