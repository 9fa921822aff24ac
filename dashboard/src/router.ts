/**
 * Hash routes (`#/<siteId>/items/posts`): the dashboard is one static page, so every
 * screen has an address that survives a reload without the server knowing the screens.
 */
import { signal } from "@preact/signals";

export const route = signal<string[]>(parse());

function parse(): string[] {
  return location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
}

/** Unsaved-change guards of open forms; leaving asks first. */
const guards = new Set<() => boolean>();
let current = location.hash;

export function guardUnsaved(isDirty: () => boolean): () => void {
  guards.add(isDirty);
  return () => guards.delete(isDirty);
}

const dirty = () => [...guards].some((g) => g());

window.addEventListener("hashchange", () => {
  if (location.hash === current) return;
  if (dirty() && !window.confirm("You have unsaved changes. Leave this page and lose them?")) {
    history.replaceState(null, "", current);
    return;
  }
  guards.clear();
  current = location.hash;
  route.value = parse();
  // Screen readers and keyboard users start at the new screen's heading, unless they have
  // already moved on (typing into a field of the new screen must not be cut off).
  const before = document.activeElement;
  requestAnimationFrame(() => {
    const now = document.activeElement;
    if (now === before || now === document.body || now === null) document.querySelector<HTMLElement>("main h1")?.focus();
  });
});

window.addEventListener("beforeunload", (e) => {
  if (dirty()) e.preventDefault();
});

/** The session ended: drop the address (and any unsaved form) without asking; sign-in follows. */
export function leaveForSignIn(): void {
  guards.clear();
  history.replaceState(null, "", location.pathname + location.search);
  current = location.hash;
  route.value = [];
}

export const href = (...parts: string[]): string => `#/${parts.map(encodeURIComponent).join("/")}`;

export function go(...parts: string[]): void {
  location.hash = href(...parts);
}

/**
 * What the next screen says first (a save that moved to the saved item's own address). It belongs
 * to the address it was made for: a screen elsewhere (or a screen that shows no message) drops it,
 * so it never turns up later on an unrelated screen.
 */
let flash: { message: string; hash: string } | null = null;
export const takeFlash = (): string | null => {
  const f = flash;
  flash = null;
  return f && f.hash === location.hash ? f.message : null;
};

/**
 * Leaves without asking, after a save made the form clean; `message` is shown (and focused) there.
 * The address replaces the form's: what was saved was a new thing (now at its own address) or a
 * deletion (gone), so Back goes where the person was before, not to an empty "New item" form.
 */
export function goSaved(...parts: string[]): void {
  guards.clear();
  location.replace(href(...parts));
}

export function goSavedWith(message: string, ...parts: string[]): void {
  flash = { message, hash: href(...parts) };
  goSaved(...parts);
}

/** As goSavedWith, for a move Back should undo: the address is added to the history, not replaced. */
export function goWith(message: string, ...parts: string[]): void {
  flash = { message, hash: href(...parts) };
  go(...parts);
}
