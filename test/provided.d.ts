// Values the Node-side global setup hands to the tests (vitest \`provide\` / \`inject\`).
declare module "vitest" {
  export interface ProvidedContext {
    /** Origin of the customer-site page server (test/node/page-server.ts). */
    pageServer: string;
    /** Origin of the outbound webhook receiver (test/node/webhook-receiver.ts). */
    webhookReceiver: string;
    /** Origin of the service running on workerd (browser tests only). */
    service: string;
    /** Origin of the DNS-over-HTTPS resolver the browser tests' service asks (scripts/doh-server.mjs). */
    doh: string;
    /** Origin of the echo upstream for the proxy Worker's tests (proxy/test/echo-server.ts). */
    upstream: string;
    /** SMTP port of the mail catcher (maildev, scripts/mail-catcher.mjs) the Worker under test sends to. */
    mailSmtpPort: number;
    /** Origin of the mail catcher's inbox: `GET /api/email` lists every mail received (never clear it: files run in parallel). */
    mailInbox: string;
  }
}

export {};
