/**
 * Who is signed in, in one module: the session signal, asking the service again, and signing
 * out. The app, the shell and the screens that change the session (sign-in, settings, plan)
 * all take it from here, so none of them imports another.
 */
import { signal } from "@preact/signals";
import { api, sessionLost } from "./api";
import { site } from "./site-state";
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

export async function signOut(): Promise<void> {
  await api("DELETE", "/sessions/current").catch(() => undefined);
  session.value = null;
  site.value = null;
  location.hash = "";
}
