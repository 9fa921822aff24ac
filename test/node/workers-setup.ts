import type { TestProject } from "vitest/node";
import { startPageServer } from "./page-server";
import { startMailCatcher } from "../../scripts/mail-catcher.mjs";

/** Global setup of the workerd test projects: the customer-site page server and the mail catcher. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const pages = await startPageServer();
  const mail = await startMailCatcher();
  project.provide("pageServer", pages.origin);
  project.provide("mailSmtpPort", mail.smtpPort);
  project.provide("mailInbox", mail.inbox);
  return async () => {
    await pages.close();
    await mail.stop();
  };
}
