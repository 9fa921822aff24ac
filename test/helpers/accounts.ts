import { expect } from "vitest";
import { call, callJson, ORIGIN } from "../helpers";
import { linkIn, mailTo, uniqueEmail } from "./mail";

export const PASSWORD = "correct horse battery";

/** The cookie header value of a Set-Cookie answer. */
export function cookieOf(res: Response): string {
  const set = res.headers.get("set-cookie") ?? "";
  const m = /^((?:__Host-)?oc_session=[^;]*)/.exec(set);
  if (!m) throw new Error(`no session cookie in ${set}`);
  return m[1]!;
}

/** The secret a mailed link carries in its fragment (`#/verify/<token>`; an invitation's proof follows it: `#/invite/<token>/<proof>`). */
export const fragmentToken = (link: string, kind: string): string => {
  const m = new RegExp(`#/${kind}/([^\\s/]+)(?:/[^\\s/]+)?$`).exec(link);
  if (!m) throw new Error(`no ${kind} token in ${link}`);
  return decodeURIComponent(m[1]!);
};

/** The proof of the address after the token of an invitation mail's link (`#/invite/<token>/<proof>`). */
export const invitationProofOf = (link: string): string => {
  const m = /#\/invite\/[^\s/]+\/([^\s/]+)$/.exec(link);
  if (!m) throw new Error(`no proof in ${link}`);
  return decodeURIComponent(m[1]!);
};

/** Signs up the way a person does: ask, read the mail, follow the link, choose a password. */
export async function signUp(email = uniqueEmail(), password = PASSWORD, headers: Record<string, string> = {}) {
  const asked = await call("POST", "/accounts", { body: { email, name: "Ada" }, headers: { origin: ORIGIN, ...headers } });
  expect(asked.status).toBe(202);
  const token = fragmentToken(linkIn(await mailTo(email, /Confirm your email/)), "verify");
  const made = await callJson<{ session: { account: { id: string; email: string } } }>("POST", "/accounts/verify", {
    body: { token, password },
    headers: { origin: ORIGIN, ...headers },
  });
  expect(made.status).toBe(201);
  return { email, password, token, cookie: cookieOf(made.res), account: made.body.session.account };
}

export function signIn(email: string, password: string, headers: Record<string, string> = {}) {
  return callJson<{ session?: unknown; error?: { code: string; message: string } }>("POST", "/sessions", {
    body: { email, password },
    headers: { origin: ORIGIN, ...headers },
  });
}
