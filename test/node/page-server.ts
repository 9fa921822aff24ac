/**
 * A real HTTP server (Node side of the test run) that plays the customer's
 * site: tests store pages on it, then capture them through the Worker, which
 * fetches them over the network like it would in production.
 *   PUT  /__pages/<path>   body = HTML; headers x-content-type, x-status, x-location optional
 *   GET  /<path>           serves what was stored (404 otherwise)
 */
import { createServer } from "node:http";

export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

export async function startPageServer(): Promise<PageServer> {
  const pages = new Map<string, { body: string; type: string; status: number; location?: string }>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "PUT" && url.pathname.startsWith("/__pages/")) {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (c: string) => (body += c));
      req.on("end", () => {
        pages.set(url.pathname.slice("/__pages".length), {
          body,
          type: String(req.headers["x-content-type"] ?? "text/html; charset=utf-8"),
          status: Number(req.headers["x-status"] ?? 200),
          location: req.headers["x-location"] as string | undefined,
        });
        res.writeHead(204).end();
      });
      return;
    }
    const page = pages.get(url.pathname);
    if (!page) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    const headers: Record<string, string> = { "content-type": page.type };
    if (page.location) headers.location = page.location;
    res.writeHead(page.status, headers).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("page server did not start");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
