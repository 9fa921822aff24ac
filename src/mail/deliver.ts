import { errorText, log } from "../log";
import { mailSender } from "./sender";
import type { Mail } from "./types";

/**
 * Sends a mail after the answer: whether a mail goes out (or which one) never changes how long
 * a request takes, so the answer cannot tell whether an address has an account.
 */
export function deliver(ctx: ExecutionContext, env: Env, mail: Mail): void {
  const started = Date.now();
  const transport = env.MAIL_TRANSPORT || "none";
  ctx.waitUntil(
    mailSender(env)
      .send(mail)
      .then(
        () => log("mail_sent", { kind: mail.kind, transport, durationMs: Date.now() - started }),
        // A server's refusal may quote the recipient: addresses never reach a log.
        (err: unknown) =>
          log("mail_failed", { kind: mail.kind, transport, error: errorText(err).replace(/[^\s<>"']+@[^\s<>"']+/g, "<address>") }),
      ),
  );
}
