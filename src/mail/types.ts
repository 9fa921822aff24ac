/** The shapes of the one mail interface (src/mail/sender.ts chooses the transport). */

export type MailKind =
  | "verify_email"
  | "account_exists"
  | "password_reset"
  | "new_sign_in"
  | "invitation"
  | "passkey_added"
  | "passkey_removed"
  | "password_changed"
  | "test";

export interface Mail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailSender {
  send(mail: Mail): Promise<void>;
}

export interface MailEnv {
  MAIL_TRANSPORT?: string;
  MAIL_FROM?: string;
  SMTP_HOST?: string;
  SMTP_PORT?: string;
  SMTP_SECURE?: string;
  SMTP_STARTTLS?: string;
  SMTP_USER?: string;
  SMTP_PASS?: string;
  EMAIL?: SendEmail;
}

/** `Name <address>` or a bare address, as worker-mailer wants it. */
export function parseFrom(from: string): { name?: string; email: string } {
  const m = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(from);
  return m ? { ...(m[1] ? { name: m[1] } : {}), email: m[2]! } : { email: from.trim() };
}
