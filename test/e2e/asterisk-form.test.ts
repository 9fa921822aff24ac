import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import { startWorkerd } from "../../scripts/workerd-host.mjs";

// The browser project's workerd serves the dashboard's files, and Miniflare's asset router (a
// Worker of its own, in front of ours) throws on the asterisk form before ours runs. This file
// starts the same build without it, so the request reaches our Worker as it does in production
// for every path that is not a static file.
let base = "";
let dispose: (() => Promise<void>) | undefined;
beforeAll(async () => {
  const started = await startWorkerd({
    scriptPath: ".wrangler/browser-test-build/index.js",
    adminToken: "asterisk-test-operator",
    embedderProcesses: 1,
    dashboard: false,
  });
  base = started.base;
  dispose = started.dispose;
});
afterAll(() => dispose?.());

/** Sends one raw HTTP/1.1 request line to the Worker's own socket (fetch cannot send the asterisk form). */
function raw(method: string, target: string): Promise<{ status: number; headers: string; body: string }> {
  const url = new URL(base || inject("service"));
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
    });
    let text = "";
    socket.on("data", (c: Buffer) => (text += c.toString("utf8")));
    socket.on("end", () => {
      const [head = "", ...rest] = text.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), headers: head.toLowerCase(), body: rest.join("\r\n\r\n") });
    });
    socket.on("error", reject);
  });
}

describe("odd request targets", () => {
  it("GET * gets 400 in the error envelope from the Worker, not a plain-text 500", async () => {
    const res = await raw("GET", "*");
    expect(res.status).toBe(400);
    expect(res.headers).toContain("content-type: application/json");
    expect(res.headers).toContain("x-content-type-options: nosniff");
    expect(res.body).toContain('"code":"bad_request"');
  });

  it("OPTIONS * (the one method the asterisk form is for) says which methods the server takes", async () => {
    const res = await raw("OPTIONS", "*");
    expect(res.status).toBe(204);
    expect(res.headers).toMatch(/allow: get, head, post/);
  });
});
