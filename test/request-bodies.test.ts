import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { addItem, newBlog, OPERATOR, ORIGIN, type TestSite, within } from "./helpers";

interface Envelope {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

/** A body that sends `first` (if any) and then nothing, ever. */
function stalledBody(first: string | null) {
  let sent = false;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (first !== null && !sent) {
          sent = true;
          controller.enqueue(new TextEncoder().encode(first));
        }
        return new Promise<void>(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return { body };
}

function send(method: string, path: string, body: ReadableStream<Uint8Array>, auth: string | null, headers: Record<string, string> = {}) {
  const h = new Headers({ "content-type": "application/json", ...headers });
  if (auth) h.set("authorization", `Bearer ${auth}`);
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, { method, headers: h, body }));
}

/** A body that declares `declared` bytes and never sends one. */
function declaredBody(declared: number): ReadableStream<Uint8Array> {
  return new FixedLengthStream(declared).readable;
}

async function envelope(r: Response, status: number, code: string): Promise<Envelope> {
  const body = (await r.json()) as Envelope;
  expect(r.status, JSON.stringify(body)).toBe(status);
  expect(body.error.code).toBe(code);
  expect(r.headers.get("cache-control")).toBe("no-store");
  return body;
}

let site: TestSite;
let itemId: string;
beforeAll(async () => {
  site = await newBlog("pro");
  itemId = (await addItem(site, "posts", { slug: "a", data: { title: "A" } })).id;
});

describe("request bodies: bounded in size and time, refused before they are read", () => {
  it("answers a declared Content-Length over 1 MB with 413 at once (with or without credentials), and no credentials with 401, before reading", async () => {
    const cases: [string, string, string | null][] = [
      ["POST", "/workspaces", OPERATOR],
      ["POST", "/workspaces", null],
      ["POST", `/sites/${site.id}/media`, site.adminKey],
      ["POST", `/sites/${site.id}/media`, null],
      ["PATCH", `/sites/${site.id}/collections/posts/items/${itemId}`, site.adminKey],
    ];
    for (const [method, path, auth] of cases) {
      const r = await within(5, send(method, path, declaredBody(10_000_000), auth));
      const body = await envelope(r, 413, "payload_too_large");
      // Named like every other 413 (docs/api.md "Request bodies"), and `maxBytes` as before.
      expect(body.error.details).toEqual({ limit: "request", max: 1024 * 1024, maxBytes: 1024 * 1024 });
    }
    // A body within the limit that never arrives: credentials are checked first, so 401 comes at once.
    for (const [path, auth] of [
      ["/workspaces", null],
      ["/workspaces", "wrong"],
      [`/sites/${site.id}/media`, null],
      [`/sites/${site.id}/media`, "sk_wrong"],
    ] as const) {
      const { body } = stalledBody(null);
      await envelope(await within(5, send("POST", path, body, auth, { "content-length": "100" })), 401, "unauthorized");
    }
  });

  it("cuts a body that grows past 1 MB without declaring its size with 413 naming the request limit", async () => {
    // Chunked: no Content-Length, so the cap is crossed while the route reads, on the front Worker's
    // routes (a workspace) and on a site's (an item, read by the site object through the guard).
    const chunk = new TextEncoder().encode(`{"pad": "${"x".repeat(64 * 1024)}`);
    for (const [method, path, auth] of [
      ["POST", "/workspaces", OPERATOR],
      ["PATCH", `/sites/${site.id}/collections/posts/items/${itemId}`, site.adminKey],
    ] as const) {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          // 20 × 64 KB: past the 1 MB cap well before the end, never a valid JSON document.
          if (sent++ < 20) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const r = await within(10, send(method, path, body, auth));
      const env = await envelope(r, 413, "payload_too_large");
      expect(env.error.details, `${method} ${path}`).toEqual({ limit: "request", max: 1024 * 1024, maxBytes: 1024 * 1024 });
    }
  });

  it("cuts a body that stops arriving with 408, on the front Worker's routes and on a site's", async () => {
    const paths = [
      ["/workspaces", OPERATOR],
      [`/sites/${site.id}/media`, site.adminKey],
      [`/sites/${site.id}/collections/posts/items`, site.adminKey],
    ] as const;
    // Sent chunked, and with a declared length the client never finishes (a small one is read in
    // one call), all at once: each waits out the read timeout.
    const cases = paths.flatMap(([path, auth]) => [null, "100", "20000"].map((declared) => ({ path, auth, declared })));
    await Promise.all(
      cases.map(async ({ path, auth, declared }) => {
        const { body } = stalledBody('{"name": "trick');
        const r = await within(10, send("POST", path, body, auth, declared ? { "content-length": declared } : {}));
        const env = await envelope(r, 408, "request_timeout");
        expect(env.error.message, `${path} ${declared}`).toMatch(/did not arrive in time/);
      }),
    );
    // Nothing was stored by the cut request.
    const list = await exports.default.fetch(
      new Request(`${ORIGIN}/sites/${site.id}/collections/posts/items`, { headers: { authorization: `Bearer ${site.adminKey}` } }),
    );
    expect(((await list.json()) as { total: number }).total).toBe(1);
  });
});
