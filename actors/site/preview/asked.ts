/**
 * How a share link reached the site object. Links are made as `/p/#<token>`: the token stays in
 * the fragment, which no request carries, and the service's page at `/p/` posts it in a form body
 * to `/p/open` (src/http/share-opener.ts), so no URL the platform logs ever holds it. Links made
 * before that carry the token in the path (`/p/<token>`) and keep working as they did.
 */
import { SHARE_OPEN_PATH } from "../../../src/http/preview-page";
import { escapeAttr } from "../../../src/shared/escape";

export interface Asked {
  url: URL;
  token: string;
  /** The fields of the form that asked (`/p/open`); null for a token in the path. */
  form: URLSearchParams | null;
}

/** The form's fields are read once here; a token in the path needs nothing more (its password post is read later). */
export async function askedOf(request: Request): Promise<Asked> {
  const url = new URL(request.url);
  if (url.pathname === SHARE_OPEN_PATH && request.method === "POST") {
    const form = new URLSearchParams(await request.text());
    return { url, token: form.get("token") ?? "", form };
  }
  // A token is base32 and an underscore: nothing to decode, and a stray `%` must not throw.
  return { url, token: url.pathname.slice("/p/".length), form: null };
}

/** Whether the item's JSON was asked for (`?format=json`, or the form's `format` field). */
export const wantsJson = (a: Asked): boolean => (a.form ? a.form.get("format") : a.url.searchParams.get("format")) === "json";

/**
 * The opening tag and hidden fields of a form that asks for this link again (the password form,
 * the JSON button): to the link's own path, or, for a token kept out of URLs, to `/p/open` with the
 * token in a hidden field (the page is only ever shown to someone who holds it).
 */
export function formAgain(a: Asked, fields: Record<string, string> = {}): string {
  if (!a.form) {
    const target = new URL(a.url);
    for (const [k, v] of Object.entries(fields)) target.searchParams.set(k, v);
    return `<form method="post" action="${escapeAttr(target.pathname + target.search)}">`;
  }
  const hidden = Object.entries({ token: a.token, ...fields })
    .map(([k, v]) => `<input type="hidden" name="${escapeAttr(k)}" value="${escapeAttr(v)}">`)
    .join("");
  return `<form method="post" action="${SHARE_OPEN_PATH}">${hidden}`;
}
