/**
 * Whether a receiver's URL may be called: `https:` without credentials, and a host that is not
 * (and does not resolve to) a loopback or private address, by the capture's rules
 * (src/net/ssrf.ts). Checked when an endpoint is registered and again before every attempt,
 * since a name can be pointed elsewhere after it was registered. Where the deployment lets
 * capture fetch private addresses (npm start, tests), `http:` and local receivers are allowed too.
 */
import { addresses } from "../../../src/net/doh";
import { checkHost, checkResolved, SsrfError, type SsrfReason } from "../../../src/net/ssrf";
import { WEBHOOK_URL_MAX } from "../../../src/contract/webhook-limits";

const HINT = "webhooks are sent to public addresses only";

export class ReceiverUrlError extends Error {
  constructor(
    message: string,
    readonly reason: SsrfReason,
  ) {
    super(message);
  }
}

export function allowsPrivateReceivers(env: Env): boolean {
  return env.SSR_ALLOW_PRIVATE_FETCH === "true";
}

/** The URL as it will be called, or a ReceiverUrlError saying why not. */
export async function checkReceiverUrl(env: Env, raw: string): Promise<string> {
  const allowPrivate = allowsPrivateReceivers(env);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ReceiverUrlError("not an absolute URL", "bad_url");
  }
  if (raw.length > WEBHOOK_URL_MAX) throw new ReceiverUrlError(`longer than ${WEBHOOK_URL_MAX} characters`, "bad_url");
  if (u.protocol !== "https:" && !(allowPrivate && u.protocol === "http:"))
    throw new ReceiverUrlError(`must be an https: URL, not ${u.protocol}`, "bad_url");
  if (u.username || u.password) throw new ReceiverUrlError("may not carry a user name or password", "bad_url");
  try {
    checkHost(u, allowPrivate, HINT);
    return await checkResolved(u.href, allowPrivate, HINT, (host) => addresses(env, host));
  } catch (err) {
    if (err instanceof SsrfError) throw new ReceiverUrlError(err.message, err.reason);
    throw err;
  }
}
