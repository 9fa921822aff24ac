import { signal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { api, sessionLost } from "./api";
import { route } from "./router";
import { SignIn } from "./screens/sign-in";
import { Shell } from "./shell";
import type { Session } from "./types";

/** undefined while the dashboard asks the service who is signed in. */
export const session = signal<Session | null | undefined>(undefined);

/** A site's new admin key, held in this page's memory only, for the sign-in screen to show once. */
export const replacedKey = signal<string | null>(null);

export async function refreshSession(): Promise<void> {
  try {
    session.value = (await api<{ session: Session }>("GET", "/sessions/current")).session;
    sessionLost.value = false;
  } catch {
    session.value = null;
  }
}

export function App() {
  useEffect(() => void refreshSession(), []);
  const s = session.value;
  if (s === undefined) return <p class="loading">Loading…</p>;
  if (s === null || sessionLost.value) return <SignIn ended={s !== null} newKey={replacedKey.value} />;
  return <Shell session={s} path={route.value} />;
}
