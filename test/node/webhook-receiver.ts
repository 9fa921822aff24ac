/**
 * A real HTTP receiver of outbound webhooks (Node side of the test run), as a customer's
 * server would be: it records every delivery it gets and answers what a test scripted.
 *   POST /hooks/<box>            a delivery: recorded (headers, raw body), answered with the box's next
 *                                scripted answer, or 200 "ok" when none is left
 *   PUT  /__script/<box>         body = JSON [{status, body?, delayMs?, headers?}]: the next answers, in order
 *   GET  /__received/<box>       JSON [{headers, body, at}] of every delivery the box got
 */
import { createServer } from "node:http";

export interface Answer {
  status: number;
  body?: string;
  /** Wait this long before answering (a receiver slower than the timeout). */
  delayMs?: number;
  headers?: Record<string, string>;
}

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface WebhookReceiver {
  origin: string;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const scripts = new Map<string, Answer[]>();
  const received = new Map<string, Received[]>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const [, kind, box = ""] = url.pathname.split("/");
      if (req.method === "PUT" && kind === "__script") {
        scripts.set(box, JSON.parse(body) as Answer[]);
        return void res.writeHead(204).end();
      }
      if (req.method === "GET" && kind === "__received") {
        return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received.get(box) ?? []));
      }
      if (req.method === "POST" && kind === "hooks") {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));
        const list = received.get(box) ?? [];
        list.push({ headers, body, at: Date.now() });
        received.set(box, list);
        const answer = scripts.get(box)?.shift() ?? { status: 200, body: "ok" };
        const send = () => {
          if (!res.destroyed) res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers }).end(answer.body ?? "");
        };
        if (answer.delayMs) {
          const timer = setTimeout(send, answer.delayMs);
          res.on("close", () => clearTimeout(timer));
        } else send();
        return;
      }
      res.writeHead(404).end("not found");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("webhook receiver did not start");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
