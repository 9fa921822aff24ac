/**
 * The customer's reverse proxy: every request on the route it is bound to
 * (e.g. `example.com/blog/*`) goes to the rendering service with the same
 * method, headers, body, path and query, plus `x-service-token`. The answer
 * comes back unchanged: status, headers and a streamed body; redirects are
 * the browser's to follow.
 *
 * With the site's proxy key (`PROXY_KEY`, optional) it also says who the
 * visitor is (`x-visitor-ip`, beside `x-proxy-key`), so the service limits
 * each visitor on their own instead of all of them as this Worker's address.
 */
export interface ProxyEnv {
  SSR_URL: string;
  SERVICE_TOKEN: string;
  PROXY_KEY?: string;
}

export default {
  async fetch(request: Request, env: ProxyEnv): Promise<Response> {
    if (!env.SSR_URL || !env.SERVICE_TOKEN) {
      return new Response("The proxy needs SSR_URL and SERVICE_TOKEN (see its README).", { status: 500 });
    }
    const incoming = new URL(request.url);
    const upstream = new URL(`${env.SSR_URL.replace(/\/+$/, "")}${incoming.pathname}${incoming.search}`);
    const headers = new Headers(request.headers);
    headers.set("x-service-token", env.SERVICE_TOKEN);
    // Only this Worker says who the visitor is: whatever the visitor sent under these names goes.
    headers.delete("x-proxy-key");
    headers.delete("x-visitor-ip");
    const visitor = request.headers.get("cf-connecting-ip");
    if (env.PROXY_KEY && visitor) {
      headers.set("x-proxy-key", env.PROXY_KEY);
      headers.set("x-visitor-ip", visitor);
    }
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    return fetch(upstream, { method: request.method, headers, body: hasBody ? request.body : null, redirect: "manual" });
  },
} satisfies ExportedHandler<ProxyEnv>;
