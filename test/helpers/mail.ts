import { inject } from "vitest";

/** One mail as the mail catcher (maildev) lists it at `GET /api/email`. */
export interface CaughtMail {
  id: string;
  subject: string;
  to: { address: string; name: string }[];
  text: string;
  html: string;
}

/**
 * The first mail to `address` whose subject matches, polled from the real inbox the Worker sent
 * it to. The inbox is shared by every test file running at once: each test uses its own
 * addresses and never clears it.
 */
export async function mailTo(address: string, subject: RegExp, timeoutMs = 10_000): Promise<CaughtMail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const hit = (await mailsTo(address)).find((m) => subject.test(m.subject));
    if (hit) return hit;
    if (Date.now() > until) throw new Error(`no mail matching ${subject} to ${address}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function mailsTo(address: string): Promise<CaughtMail[]> {
  const all = (await (await fetch(`${inject("mailInbox")}/api/email`)).json()) as CaughtMail[];
  return all.filter((m) => m.to.some((t) => t.address.toLowerCase() === address.toLowerCase()));
}

/** The dashboard link in a mail's text (its secret is in the fragment). */
export function linkIn(mail: { text: string }): string {
  const m = /https?:\/\/\S+#\/\S+/.exec(mail.text);
  if (!m) throw new Error(`no link in mail: ${mail.text.slice(0, 200)}`);
  return m[0];
}

/** A fresh address no other test uses. */
export const uniqueEmail = (who = "ada"): string => `${who}+${crypto.randomUUID()}@example.com`;
