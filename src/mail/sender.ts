/**
 * The one way the service sends email (verification, password reset, "new sign-in" notices,
 * invitations). Which transport is chosen by configuration alone (MAIL_TRANSPORT):
 *
 * - `cloudflare`: the `send_email` binding EMAIL (Cloudflare Email Service), production's default;
 * - `smtp`: any SMTP server over `cloudflare:sockets` (worker-mailer): a provider on 587/465 in
 *   production, or the local mail catcher (maildev) that `npm start` and the tests run;
 * - anything else: not configured, and saying so. There is no sender that pretends.
 */
import { ApiError } from "../contract/errors";
import { cloudflareSender } from "./cloudflare";
import { smtpSender } from "./smtp";
import type { MailEnv, MailSender } from "./types";

export type { Mail, MailEnv, MailKind, MailSender } from "./types";

export function mailSender(env: MailEnv): MailSender {
  const from = env.MAIL_FROM || "open-content-edge <no-reply@localhost>";
  if (env.MAIL_TRANSPORT === "cloudflare" && env.EMAIL) return cloudflareSender(env.EMAIL, from);
  if (env.MAIL_TRANSPORT === "smtp" && env.SMTP_HOST) return smtpSender(env, from);
  return {
    send: () =>
      Promise.reject(
        new ApiError(
          "not_configured",
          "Email is not configured: set MAIL_TRANSPORT to cloudflare (with the EMAIL binding) or smtp (with SMTP_HOST).",
        ),
      ),
  };
}
