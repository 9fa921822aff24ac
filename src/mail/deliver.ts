import { ApiError } from "../contract/errors";
import { errorText, log } from "../log";
import { mailSender } from "./sender";
import type { Mail } from "./types";

/**
 * Sends a mail after the answer: whether a mail goes out (or which one) never changes how long
 * a request takes, so the answer cannot tell whether an address has an account.
 */
export function deliver(ctx: ExecutionContext, env: Env, mail: Mail): void {
  ctx.waitUntil(deliverNow(env, mail));
}

/**
 * Sends a mail and says how it went: for a mail whose sender must be told (an invitation, whose
 * address the inviter typed, so waiting tells nothing about accounts). The transport's own
 * timeouts bound the wait.
 */
export async function deliverNow(env: Env, mail: Mail): Promise<"sent" | "failed" | "not_configured"> {
  const started = Date.now();
  const transport = env.MAIL_TRANSPORT || "none";
  try {
    await mailSender(env).send(mail);
    log("mail_sent", { kind: mail.kind, transport, durationMs: Date.now() - started });
    return "sent";
  } catch (err) {
    // A server's refusal may quote the recipient: addresses never reach a log.
    log("mail_failed", { kind: mail.kind, transport, error: errorText(err).replace(/[^\s<>"']+@[^\s<>"']+/g, "<address>") });
    return err instanceof ApiError && err.code === "not_configured" ? "not_configured" : "failed";
  }
}
