/**
 * Who is signed in, in one module: the session signal, asking the service again, and signing
 * out. The app, the shell and the screens that change the session (sign-in, settings, plan)
 * all take it from here, so none of them imports another.
 */
import { signal } from "@preact/signals";
import { call, client, sessionLost } from "./api";
import { leaveForSignIn } from "./router";
import { collections, site } from "./site-state";
import type { Session } from "./types";

/** undefined while the dashboard asks the service who is signed in. */
export const session = signal<Session | null | undefined>(undefined);

/** A site's new admin key, held in this page's memory only, for the sign-in screen to show once. */
export const replacedKey = signal<string | null>(null);

/** Set when another tab of this dashboard ended the session (the sign-in screen says so). */
export const endedElsewhere = signal(false);

/**
 * Every tab of the dashboard shares one session cookie: when one tab ends it (sign out, admin
 * key replaced), the others are told at once and drop the site from screen, instead of showing
 * it until their next request fails. Only the fact travels; a replaced key stays in its own page.
 */
const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("open-content-edge:session") : null;
channel?.addEventListener("message", (e: MessageEvent<unknown>) => {
  if ((e.data as { type?: unknown } | null)?.type !== "session-ended") return;
  endedElsewhere.value = true;
  clearHere();
});

function clearHere(): void {
  site.value = null;
  collections.value = null;
  session.value = null;
  leaveForSignIn();
}

/** The session is over: nothing of the site stays on screen in this tab or any other. */
export function sessionEnded(): void {
  clearHere();
  channel?.postMessage({ type: "session-ended" });
}

export async function refreshSession(): Promise<void> {
  try {
    // The status read answers {session: null} when no one is signed in, where /sessions/current
    // answers 401: every signed-out load asks, and a "no" is not a failed request.
    const now = (await call(client.GET("/sessions/current/status"))).session;
    session.value = now;
    if (now) {
      sessionLost.value = false;
      endedElsewhere.value = false;
    }
  } catch {
    session.value = null;
  }
}

export async function signOut(): Promise<void> {
  await call(client.DELETE("/sessions/current")).catch(() => undefined);
  sessionEnded();
}
