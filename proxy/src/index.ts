/**
 * The customer's reverse proxy: every request on the route it is bound to
 * (e.g. `example.com/blog/*`) goes to the rendering service with the same
 * method, headers, body, path and query, plus `x-service-token`. The answer
 * comes back unchanged: status, headers and a streamed body; redirects are
 * the browser's to follow.
 */
export interface ProxyEnv {
  SSR_URL: string;
  SERVICE_TOKEN: string;
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
    const hasBody = request.method !== "GET" && request.method !== "HEAD";
    return fetch(upstream, { method: request.method, headers, body: hasBody ? request.body : null, redirect: "manual" });
  },
} satisfies ExportedHandler<ProxyEnv>;
