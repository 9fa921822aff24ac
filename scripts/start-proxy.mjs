// `npm run start:proxy`: the customer's reverse-proxy Worker (proxy/) on wrangler dev.
// PORT (default 8790), SSR_URL (default http://127.0.0.1:8787), SERVICE_TOKEN (required) and
// PROXY_KEY (optional: the site's proxy key, so visitors are limited one by one) come from the
// environment.
import { spawn } from "node:child_process";
import { join } from "node:path";

const port = process.env.PORT ?? "8790";
const ssrUrl = process.env.SSR_URL ?? "http://127.0.0.1:8787";
const token = process.env.SERVICE_TOKEN;
if (!token) {
  console.error("Set SERVICE_TOKEN to the site's public token (pk_…); npm start prints the demo site's.");
  process.exit(1);
}
const child = spawn(
  join("node_modules", ".bin", "wrangler"),
  [
    "dev",
    "-c",
    "proxy/wrangler.toml",
    "--port",
    port,
    "--ip",
    "127.0.0.1",
    "--var",
    `SSR_URL:${ssrUrl}`,
    "--var",
    `SERVICE_TOKEN:${token}`,
    ...(process.env.PROXY_KEY ? ["--var", `PROXY_KEY:${process.env.PROXY_KEY}`] : []),
    "--show-interactive-dev-session=false",
  ],
  { stdio: "inherit", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
);
const stop = () => child.kill("SIGINT");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
child.on("exit", (code) => process.exit(code ?? 0));
console.log(`proxy on http://127.0.0.1:${port} → ${ssrUrl} (try http://127.0.0.1:${port}/blog/)`);
