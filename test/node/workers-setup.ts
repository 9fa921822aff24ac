import type { TestProject } from "vitest/node";
import { startPageServer } from "./page-server";
import { startWebhookReceiver } from "./webhook-receiver";
import { startMailCatcher } from "../../scripts/mail-catcher.mjs";

/** Global setup of the workerd test projects: the customer-site page server, the mail catcher and a webhook receiver. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const pages = await startPageServer();
  const mail = await startMailCatcher();
  const hooks = await startWebhookReceiver();
  project.provide("pageServer", pages.origin);
  project.provide("webhookReceiver", hooks.origin);
  project.provide("mailSmtpPort", mail.smtpPort);
  project.provide("mailInbox", mail.inbox);
  return async () => {
    await pages.close();
    await hooks.close();
    await mail.stop();
  };
}
