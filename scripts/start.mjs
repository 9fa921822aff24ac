// `npm start`: the service on wrangler dev with a seeded demo site, and the local
// embedder Worker (embedder/) next to it so semantic search works offline.
// Honours PORT (8787), DEMO_PAGES_PORT (PORT + 1), EMBEDDER_PORT (PORT + 2), DNS_PORT (PORT + 3),
// MAIL_SMTP_PORT (PORT + 4), MAIL_INBOX_PORT (PORT + 5), ADMIN_TOKEN, SITE_ID_SECRET and
// AUTH_SECRET (else .dev.vars, else generated) and PERSIST_DIR (.wrangler/state).
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { adminToken, api, authSecret, must, siteIdSecret, waitFor } from "./lib.mjs";
import { startMailCatcher } from "./mail-catcher.mjs";
import { seedDemoSite } from "./demo-content.mjs";
import { startDemoPages } from "./demo-page.mjs";
import { startDohServer } from "./doh-server.mjs";

const port = Number(process.env.PORT ?? 8787);
const demoPort = Number(process.env.DEMO_PAGES_PORT ?? port + 1);
const embedderPort = Number(process.env.EMBEDDER_PORT ?? port + 2);
const dnsPort = Number(process.env.DNS_PORT ?? port + 3);
const mailSmtpPort = Number(process.env.MAIL_SMTP_PORT ?? port + 4);
const mailInboxPort = Number(process.env.MAIL_INBOX_PORT ?? port + 5);
const persistDir = resolve(process.env.PERSIST_DIR ?? ".wrangler/state");
const allowPrivateFetch = process.env.SSR_ALLOW_PRIVATE_FETCH !== "false";
const base = `http://127.0.0.1:${port}`;
const { token: operator, source } = adminToken();
const idSecret = siteIdSecret();
const accountSecret = authSecret();
mkdirSync(persistDir, { recursive: true });
// The DNS this machine's custom hostnames are checked against: a DNS-over-HTTPS resolver serving
// the records you give it (kept in the state folder), as your DNS provider would publish them.
const dns = await startDohServer({ port: dnsPort, file: join(persistDir, "dns-records.json") });
// The mail catcher: account mails (verification, password reset, sign-in notices) land in its
// inbox, sent by the Worker over SMTP as they would be to a provider. Kept with the local state.
const mail = await startMailCatcher({ smtpPort: mailSmtpPort, inboxPort: mailInboxPort, mailDirectory: join(persistDir, "mail") });
execFileSync(process.execPath, ["embedder/build.mjs"], { stdio: "inherit" });

// Two wrangler dev sessions that find each other through a dev registry of their own: the
// embedder in one, the service in the other. The model is compute-bound, and in a session of
// its own it runs on its own workerd thread, so bulk indexing neither queues the site objects
// nor shares their core.
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_DEV_REGISTRY_PATH: join(persistDir, "dev-registry") };
const wrangler = (args) =>
  spawn(join("node_modules", ".bin", "wrangler"), ["dev", ...args], { stdio: ["ignore", "inherit", "inherit"], env });
const embedder = wrangler([
  "-c",
  "embedder/wrangler.toml",
  "--port",
  String(embedderPort),
  "--ip",
  "127.0.0.1",
  "--show-interactive-dev-session=false",
]);
const children = [embedder];
const stop = () => {
  children.forEach((c) => c.kill("SIGINT"));
  void mail.stop();
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
// Either session ending ends both, and npm start with it.
const exitWithEither = (c) => c.on("exit", (code) => (stop(), process.exit(code ?? 0)));
exitWithEither(embedder);
// Started one after the other: two sessions starting at once can pick the same free port.
await waitFor(`http://127.0.0.1:${embedderPort}/`, 120_000);
const service = wrangler([
  "-c",
  "wrangler.toml",
  "--port",
  String(port),
  "--ip",
  "127.0.0.1",
  "--persist-to",
  persistDir,
  "--var",
  `ADMIN_TOKEN:${operator}`,
  "--var",
  `SITE_ID_SECRET:${idSecret}`,
  "--var",
  `AUTH_SECRET:${accountSecret}`,
  "--var",
  "MAIL_TRANSPORT:smtp",
  "--var",
  `SMTP_PORT:${mail.smtpPort}`,
  // Sites made by npm start all carry the MAC (a demo site from before it is made again below):
  // an id without it is refused before any object exists for it.
  "--var",
  `LEGACY_SITE_IDS:${process.env.LEGACY_SITE_IDS ?? "refuse"}`,
  // Workspaces made by npm start carry it too; LEGACY_WORKSPACE_IDS=check for older local data.
  "--var",
  `LEGACY_WORKSPACE_IDS:${process.env.LEGACY_WORKSPACE_IDS ?? "refuse"}`,
  // Local dev may capture pages served on 127.0.0.1 (the demo pages below); production refuses them.
  // `SSR_ALLOW_PRIVATE_FETCH=false npm start` refuses them as production does (docs/ssrf.md), to
  // try those refusals by hand; the demo page is then not captured.
  "--var",
  `SSR_ALLOW_PRIVATE_FETCH:${allowPrivateFetch}`,
  // Custom hostnames the laptop way: *.localhost resolves to this machine.
  "--var",
  "CUSTOM_HOSTNAMES:local",
  "--var",
  "CUSTOM_HOSTNAME_CNAME_TARGET:localhost",
  "--var",
  `DOH_URL:${dns.url}`,
  // The site limits as documented; `LOAD_TEST=1 npm start` raises them a thousandfold for load tests.
  "--var",
  `RATE_LIMIT_SCALE:${process.env.LOAD_TEST === "1" ? "1000" : (process.env.RATE_LIMIT_SCALE ?? "1")}`,
  "--show-interactive-dev-session=false",
]);
children.push(service);
exitWithEither(service);

await waitFor(`${base}/`, 120_000);
const demo = await ensureDemoSite();
const demoPages = `http://127.0.0.1:${demoPort}`;
await startDemoPages(demoPort, base, demo.token);
// Capture the demo page so server-side rendering works out of the box (again on every start: the page server is new).
if (allowPrivateFetch)
  await must(
    api(base, "PUT", `/sites/${demo.id}/ssr/capture`, demo.adminKey, { pageUrl: `${demoPages}/blog/`, collection: "posts" }),
    "capture demo page",
  );
else
  console.log(
    `SSR_ALLOW_PRIVATE_FETCH=false: private addresses are refused as in production; the demo page (${demoPages}) is not captured.`,
  );
printWelcome(demo);

async function ensureDemoSite() {
  const file = join(persistDir, "demo-site.json");
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, "utf8"));
    const check = await api(base, "GET", `/sites/${saved.id}`, operator);
    if (check.status === 200) return saved;
    // A demo site from before site ids carried their MAC is refused now: a new one is made.
  }
  const saved = await seedDemoSite(base, operator, 12, `http://127.0.0.1:${demoPort}`);
  writeFileSync(file, JSON.stringify(saved, null, 2), { mode: 0o600 });
  return saved;
}

function printWelcome(d) {
  console.log(`
────────────────────────────────────────────────────────────────────
 open-content-edge is running on ${base}   (state: ${persistDir})

 Dashboard: http://localhost:${port}/dashboard/   create an account with any address (passkeys need
            "localhost", not 127.0.0.1), or sign in with the demo site's admin key below
            (or with the operator token to create sites and change plans)
 Mail inbox: ${mail.inbox}/   (account verification, password resets, sign-in notices)
 operator token (${source}): ${operator}
 demo site ${d.id}
   public token: ${d.token}
   admin key:    ${d.adminKey}

 Try:
   curl -s '${base}/v1/${d.token}/collections/posts/items?limit=3&sort=-date'
   curl -sg '${base}/v1/${d.token}/collections/posts/items?filter[category]=food&search=loaf'
   curl -s '${base}/v1/${d.token}/collections/posts/items/sourdough-for-beginners'
   curl -s '${base}/v1/${d.token}/search?q=how+do+I+bake+bread+at+home'
   curl -s '${base}/v1/${d.token}/collections/posts/items/sourdough-for-beginners/related'
   curl -s -H 'authorization: Bearer ${d.adminKey}' ${base}/sites/${d.id}/collections

 Server-side rendering (SEO Engine): the demo page ${demoPages}/blog/ is captured.
   open ${demoPages}/blog/                                   (rendered in the browser by embed.js)
   curl -s -H 'x-service-token: ${d.token}' ${base}/blog/       (rendered by the server)
   curl -s -H 'x-service-token: ${d.token}' ${base}/blog/sourdough-for-beginners
   curl -s -H 'authorization: Bearer ${d.adminKey}' ${base}/sites/${d.id}/ssr/capture

 Custom hostnames (Domains tab): *.localhost is this machine; this machine's DNS is ${dns.origin}.
   Publish the TXT record a hostname asks for, as you would at your DNS provider:
   curl -X PUT --data 'oc-site-verification=…' '${dns.origin}/records/_oc-challenge.blog.localhost?type=TXT'
   curl -s ${dns.origin}/records                                  (every record it serves)
   curl -s -X POST -H 'authorization: Bearer ${d.adminKey}' -H 'content-type: application/json' \\
        -d '{"slug":"hello-world","data":{"title":"Hello world"},"publish":true}' \\
        ${base}/sites/${d.id}/collections/posts/items
────────────────────────────────────────────────────────────────────`);
}
