/**
 * The upload queue: drop many files, pick them, or paste; each file has its own progress bar and,
 * when refused, the reason in words and a Retry (none when the file itself is the reason); a total bar covers the queue. At most three
 * uploads run at once.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { MediaEntry } from "../types";
import { formatBytes, uploadFile, UploadRefused } from "./upload";

const IMAGES = "image/jpeg,image/png,image/gif,image/webp,image/avif,image/svg+xml";
const ACCEPT = `${IMAGES},video/mp4,video/webm,application/pdf`;
const PARALLEL = 3;
const NOT_AN_IMAGE = "not an image. This field takes JPEG, PNG, GIF, WebP, AVIF or SVG images; add videos and PDFs on the Media screen.";

interface Row {
  key: number;
  file: File;
  loaded: number;
  state: "queued" | "uploading" | "done" | "failed";
  message?: string;
  /** Refused for what the file is: no Retry is offered. */
  forGood?: boolean;
  media?: MediaEntry;
  duplicate?: boolean;
}

let nextKey = 1;

export function Uploader(props: {
  siteId: string;
  onUploaded: (m: MediaEntry) => void;
  /** Told of each file as it is added (an image field shows it at once, before the upload ends). */
  onFiles?: (files: File[]) => void;
  label?: string;
  pasteTarget?: "document";
  multiple?: boolean;
  /** An image or gallery field: only images are picked, and another file is refused here, before it is sent. */
  imagesOnly?: boolean;
}) {
  const [rows, setRows] = useState<Row[]>([]);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;

  const update = (key: number, patch: Partial<Row>) => setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  // Start queued files while fewer than PARALLEL run.
  useEffect(() => {
    const running = rows.filter((r) => r.state === "uploading").length;
    const next = rows.filter((r) => r.state === "queued").slice(0, Math.max(0, PARALLEL - running));
    for (const r of next) {
      update(r.key, { state: "uploading", loaded: 0 });
      uploadFile(props.siteId, r.file, (loaded) => update(r.key, { loaded })).done.then(
        (u) => {
          update(r.key, { state: "done", loaded: r.file.size, media: u.media, duplicate: u.duplicate });
          props.onUploaded(u.media);
        },
        (e: Error) => update(r.key, { state: "failed", message: e.message, forGood: e instanceof UploadRefused && e.forGood }),
      );
    }
  }, [rows]);

  const add = (files: FileList | File[] | null) => {
    if (!files || files.length === 0) return;
    const isImage = (f: File) => IMAGES.split(",").includes(f.type);
    const wanted = props.imagesOnly ? [...files].filter(isImage) : [...files];
    if (wanted.length > 0) props.onFiles?.(wanted);
    setRows((rs) => [
      ...rs,
      ...[...files].map((file) =>
        props.imagesOnly && !isImage(file)
          ? { key: nextKey++, file, loaded: 0, state: "failed" as const, forGood: true, message: NOT_AN_IMAGE }
          : { key: nextKey++, file, loaded: 0, state: "queued" as const },
      ),
    ]);
  };

  // Paste from the clipboard anywhere on the screen.
  useEffect(() => {
    if (props.pasteTarget !== "document") return;
    const onPaste = (e: ClipboardEvent) => {
      const files = e.clipboardData?.files;
      if (files && files.length > 0) {
        e.preventDefault();
        add(files);
      }
    };
    document.addEventListener("paste", onPaste);
    return () => document.removeEventListener("paste", onPaste);
  }, []);

  const total = rows.reduce((n, r) => n + r.file.size, 0);
  const loaded = rows.reduce((n, r) => n + (r.state === "done" ? r.file.size : r.loaded), 0);
  const finished = rows.filter((r) => r.state === "done").length;
  const label = props.label ?? "Drop files here";
  return (
    <div class="uploader">
      <button
        type="button"
        class={over ? "drop-zone over" : "drop-zone"}
        onClick={() => input.current?.click()}
        onDragEnter={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragOver={(e) => e.preventDefault()}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          add(e.dataTransfer?.files ?? null);
        }}
      >
        {label}
        <span class="muted small-text">
          {props.imagesOnly ? " or click to choose (images; paste works too)" : " or click to choose (images, video, PDF; paste works too)"}
        </span>
      </button>
      <label class="visually-hidden" for={`pick-${props.siteId}-${label}`}>
        Choose files
      </label>
      <input
        ref={input}
        id={`pick-${props.siteId}-${label}`}
        class="visually-hidden"
        type="file"
        multiple={props.multiple ?? true}
        accept={props.imagesOnly ? IMAGES : ACCEPT}
        tabIndex={-1}
        onChange={(e) => {
          add(e.currentTarget.files);
          e.currentTarget.value = "";
        }}
      />
      {rows.length > 0 && (
        <div class="upload-queue">
          <p role="status" aria-live="polite">
            {finished} of {rows.length} uploaded
          </p>
          <progress aria-label="All uploads" max={total || 1} value={loaded} />
          <ul>
            {rows.map((r) => (
              <li key={r.key} class={`upload-row ${r.state}`}>
                <span class="name">{r.file.name}</span> <span class="muted small-text">{formatBytes(r.file.size)}</span>
                <progress
                  aria-label={`Uploading ${r.file.name}`}
                  max={r.file.size || 1}
                  value={r.state === "done" ? r.file.size : r.loaded}
                />
                {r.state === "done" && <span class="ok">{r.duplicate ? "Already in the library" : "Uploaded"}</span>}
                {r.state === "failed" && (
                  <>
                    <span class="error" role="alert">
                      {r.file.name}: {r.message}
                    </span>{" "}
                    {!r.forGood && (
                      <button
                        type="button"
                        class="secondary small"
                        onClick={() => update(r.key, { state: "queued", loaded: 0, message: undefined })}
                      >
                        Retry {r.file.name}
                      </button>
                    )}
                  </>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
