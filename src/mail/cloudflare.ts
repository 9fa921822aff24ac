import { type Mail, type MailSender, parseFrom } from "./types";

/** Cloudflare Email Service through the `send_email` binding (Workers Paid). */
export function cloudflareSender(binding: SendEmail, from: string): MailSender {
  const sender = parseFrom(from);
  return {
    async send(mail: Mail): Promise<void> {
      await binding.send({
        from: sender.name ? { name: sender.name, email: sender.email } : sender.email,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    },
  };
}
