// The local mail catcher: maildev (SMTP + web inbox + REST /api/email), run in-process by
// `npm start` and by the test global setups. The Worker sends to it over cloudflare:sockets
// exactly as it would to a provider in production (src/mail/smtp.ts); nothing pretends to send.
import { MailDev } from "maildev";

/**
 * Starts maildev on 127.0.0.1. Port 0 takes a free port. With `mailDirectory` the inbox
 * survives restarts (npm start keeps it with the rest of the local state).
 * @param {{ smtpPort?: number, inboxPort?: number, mailDirectory?: string }} [options]
 * @returns {Promise<{ smtpPort: number, inbox: string, stop: () => Promise<void> }>}
 */
export async function startMailCatcher({ smtpPort = 0, inboxPort = 0, mailDirectory } = {}) {
  const mail = new MailDev({
    smtp: smtpPort,
    web: inboxPort,
    ip: "127.0.0.1",
    webIp: "127.0.0.1",
    silent: true,
    ...(mailDirectory ? { mailDirectory } : {}),
  });
  const servers = await mail.start();
  return {
    smtpPort: servers.smtp.getPort(),
    inbox: `http://127.0.0.1:${servers.api.getPort()}`,
    stop: () => mail.stop(),
  };
}
