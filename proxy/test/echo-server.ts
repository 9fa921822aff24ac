/**
 * The upstream for the proxy tests (Node side): answers every request with
 * what it received, so a test can see exactly what the proxy forwarded.
 *   /redirect      → 302 to /elsewhere
 *   /status/<n>    → status n with headers x-upstream and set-cookie
 *   anything else  → 200 JSON {method, path, query, headers, body}
 */
import { createServer } from "node:http";
import type { TestProject } from "vitest/node";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname === "/redirect") return void res.writeHead(302, { location: "/elsewhere", "x-upstream": "yes" }).end();
      const status = /^\/status\/(\d{3})$/.exec(url.pathname);
      if (status) {
        return void res
          .writeHead(Number(status[1]), {
            "content-type": "text/plain",
            "x-upstream": "yes",
            "set-cookie": ["a=1; Path=/", "b=2; Path=/"],
            "cache-control": "private, max-age=7",
          })
          .end(`status ${status[1]}`);
      }
      res.writeHead(200, { "content-type": "application/json", "x-upstream": "echo" });
      res.end(
        JSON.stringify({
          method: req.method,
          path: url.pathname,
          query: url.search,
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("echo server did not start");
  project.provide("upstream", `http://127.0.0.1:${address.port}`);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
