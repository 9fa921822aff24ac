import type { TestProject } from "vitest/node";
import { buildWorker, startWorkerd } from "../../scripts/workerd-host.mjs";
import { startPageServer } from "./page-server";
import { startDohServer } from "../../scripts/doh-server.mjs";
import { startMailCatcher } from "../../scripts/mail-catcher.mjs";

export const BROWSER_OPERATOR = "browser-test-operator";

/**
 * Global setup of the browser test project: the built Worker on workerd (via
 * Miniflare, direct socket) and the customer-site page server, both on
 * 127.0.0.1, for Chromium to load pages from.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const script = buildWorker(".wrangler/browser-test-build");
  // The resolver custom hostname ownership (TXT) is checked against; tests publish records on it.
  const doh = await startDohServer();
  // Account mails go to a real local inbox; tests read them through its REST API.
  const mail = await startMailCatcher();
  const { dispose, base } = await startWorkerd({
    scriptPath: script,
    adminToken: BROWSER_OPERATOR,
    // Custom hostnames the laptop way, as npm start runs them: *.localhost, validated by a request.
    vars: {
      SSR_ALLOW_PRIVATE_FETCH: "true",
      // As npm start has it (wrangler.toml): a client without CF-Connecting-IP is keyed by what it
      // says about itself, so each test file's browser counts as its own client.
      LOCAL_CLIENT_KEYS: "true",
      CUSTOM_HOSTNAMES: "local",
      SERVICE_HOSTNAMES: "127.0.0.1,localhost",
      CUSTOM_HOSTNAME_CNAME_TARGET: "localhost",
      DOH_URL: doh.url,
      MAIL_TRANSPORT: "smtp",
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(mail.smtpPort),
      SMTP_SECURE: "false",
      SMTP_STARTTLS: "false",
      // Plans as npm start has them (wrangler.toml [vars]): the Owner changes plans on the Plan screen.
      SELF_SERVE_PLANS: "on",
      PLAN_PRICES: '{"free":0,"starter":9,"pro":29,"seo_engine":99}',
    },
    embedderProcesses: 1,
  });
  const pages = await startPageServer();
  project.provide("service", base);
  project.provide("pageServer", pages.origin);
  project.provide("doh", doh.origin);
  project.provide("mailInbox", mail.inbox);
  project.provide("mailSmtpPort", mail.smtpPort);
  return async () => {
    await mail.stop();
    await pages.close();
    await doh.close();
    await dispose();
  };
}
