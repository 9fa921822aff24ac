import { LogLevel, WorkerMailer } from "worker-mailer";
import { type Mail, type MailEnv, type MailSender, parseFrom } from "./types";

/**
 * SMTP over `cloudflare:sockets` (worker-mailer): one connection per mail. Its own logging is
 * off: at DEBUG it writes every socket line (the AUTH exchange, message bodies with reset links),
 * and its INFO lines are not structured. The caller logs a structured event instead.
 */
export function smtpSender(env: MailEnv, from: string): MailSender {
  const port = Number(env.SMTP_PORT ?? 587);
  const secure = env.SMTP_SECURE === "true";
  return {
    async send(mail: Mail): Promise<void> {
      await WorkerMailer.send(
        {
          host: env.SMTP_HOST!,
          port,
          secure,
          startTls: !secure && env.SMTP_STARTTLS !== "false",
          ...(env.SMTP_USER
            ? { credentials: { username: env.SMTP_USER, password: env.SMTP_PASS ?? "" }, authType: ["plain", "login"] }
            : {}),
          logLevel: LogLevel.NONE,
          socketTimeoutMs: 10_000,
          responseTimeoutMs: 10_000,
        },
        { from: parseFrom(from), to: mail.to, subject: mail.subject, text: mail.text, html: mail.html },
      );
    },
  };
}
