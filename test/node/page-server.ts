/**
 * A real HTTP server (Node side of the test run) that plays the customer's
 * site: tests store pages on it, then capture them through the Worker, which
 * fetches them over the network like it would in production.
 *   PUT  /__pages/<path>   body = HTML (bytes, served as sent); headers x-content-type, x-status, x-location,
 *                          x-body-delay-ms (the first 100 bytes at once, the rest after that delay) optional
 *   GET  /<path>           serves what was stored (404 otherwise)
 */
import { createServer } from "node:http";

export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

export async function startPageServer(): Promise<PageServer> {
  const pages = new Map<string, { body: Buffer; type: string; status: number; location?: string; delayMs: number }>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "PUT" && url.pathname.startsWith("/__pages/")) {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        pages.set(url.pathname.slice("/__pages".length), {
          body: Buffer.concat(chunks),
          type: String(req.headers["x-content-type"] ?? "text/html; charset=utf-8"),
          status: Number(req.headers["x-status"] ?? 200),
          location: req.headers["x-location"] as string | undefined,
          delayMs: Number(req.headers["x-body-delay-ms"] ?? 0),
        });
        res.writeHead(204).end();
      });
      return;
    }
    const page = pages.get(url.pathname);
    if (!page) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    const headers: Record<string, string> = { "content-type": page.type };
    if (page.location) headers.location = page.location;
    if (!page.delayMs) return void res.writeHead(page.status, headers).end(page.body);
    // A slow page: the head of the body now, the rest later (the connection stays open meanwhile).
    res.writeHead(page.status, headers).write(page.body.subarray(0, 100));
    const timer = setTimeout(() => res.end(page.body.subarray(100)), page.delayMs);
    res.on("close", () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("page server did not start");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
