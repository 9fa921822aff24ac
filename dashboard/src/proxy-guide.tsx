import PROXY_SOURCE from "virtual:proxy-source";
import { CodeBlock } from "./ui";

/** The customer's reverse-proxy Worker, with this site's token and this service filled in. */
export function ProxyGuide(props: { token: string }) {
  const origin = location.origin;
  const config = [
    `name = "content-proxy"`,
    `main = "src/index.ts"`,
    `compatibility_date = "2026-11-01"`,
    ``,
    `[vars]`,
    `SSR_URL = "${origin}"`,
  ].join("\n");
  const deploy = [`npx wrangler deploy`, `echo "${props.token}" | npx wrangler secret put SERVICE_TOKEN`].join("\n");
  return (
    <>
      <CodeBlock code={PROXY_SOURCE} label="Reverse-proxy Worker: src/index.ts" />
      <CodeBlock code={config} label="Reverse-proxy Worker: wrangler.toml" />
      <CodeBlock code={deploy} label="Deploy it and store your token" />
      <ol>
        <li>
          Add a Worker route with a <strong>trailing wildcard</strong>, such as <code>www.example.com/blog/*</code>. An exact-match route (
          <code>www.example.com/blog/</code>) silently misses item pages.
        </li>
        <li>
          Link the list page <strong>with a trailing slash</strong> (<code>/blog/</code>, not <code>/blog</code>).
        </li>
        <li>
          The DNS record of the hostname must be <strong>proxied</strong> (orange cloud): a DNS-only record silently bypasses the Worker,
          and the pages load without server rendering.
        </li>
      </ol>
    </>
  );
}
