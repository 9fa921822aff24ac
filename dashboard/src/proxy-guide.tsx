import PROXY_SOURCE from "virtual:proxy-source";
import { call, client } from "./api";
import { can, inSite } from "./site-state";
import { CodeBlock } from "./ui";
import { useLoad } from "./use-load";

/**
 * The customer's reverse-proxy Worker, with this site's token and this service filled in, and the
 * site's proxy key when the viewer's role manages the SEO Engine (others are not given it).
 */
export function ProxyGuide(props: { token: string }) {
  const mayManage = can("seo.manage");
  const loaded = useLoad(
    () => (mayManage ? call(client.GET("/sites/{siteId}/ssr/proxy-key", { params: { path: inSite() } })) : Promise.resolve(null)),
    [props.token, mayManage],
  );
  const proxyKey = loaded.data?.proxyKey ?? null;
  const origin = location.origin;
  const config = [
    `name = "content-proxy"`,
    `main = "src/index.ts"`,
    `compatibility_date = "2026-11-01"`,
    ``,
    `[vars]`,
    `SSR_URL = "${origin}"`,
  ].join("\n");
  const deploy = [
    `npx wrangler deploy`,
    `echo "${props.token}" | npx wrangler secret put SERVICE_TOKEN`,
    ...(proxyKey ? [`echo "${proxyKey}" | npx wrangler secret put PROXY_KEY`] : []),
  ].join("\n");
  return (
    <>
      <CodeBlock code={PROXY_SOURCE} label="Reverse-proxy Worker: src/index.ts" />
      <CodeBlock code={config} label="Reverse-proxy Worker: wrangler.toml" />
      <CodeBlock code={deploy} label={proxyKey ? "Deploy it and store your token and proxy key" : "Deploy it and store your token"} />
      <p>
        {proxyKey ? (
          <>
            The <strong>proxy key</strong> is a secret: with it the Worker tells this service each visitor's address, so every visitor and
            crawler has limits of their own instead of sharing the proxy's. Keep it out of your repository.
          </>
        ) : (
          <>
            Someone who manages the SEO Engine can add the site's <strong>proxy key</strong> (<code>PROXY_KEY</code>), so every visitor has
            limits of their own instead of sharing the proxy's.
          </>
        )}
      </p>
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
