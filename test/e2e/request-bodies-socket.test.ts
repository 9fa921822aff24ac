/**
 * Request bodies over a real socket (the built Worker on workerd): a client that
 * pushes a whole oversized body reads the 413 envelope instead of a reset
 * connection, and a declared oversize that never arrives is answered at once.
 */
import { connect } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { type Site, api, blogSite, service } from "../browser/harness";

const OPERATOR = "browser-test-operator";
let site: Site;
let itemId: string;

beforeAll(async () => {
  site = await blogSite();
  const { item } = await api<{ item: { id: string } }>("POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
    slug: "a",
    data: { title: "A" },
  });
  itemId = item.id;
});

/** Sends the head of a request declaring `declared` bytes and no body; resolves with the status line, or rejects after `seconds`. */
function declaredOnly(path: string, declared: number, auth: string | null, seconds: number): Promise<string> {
  const { hostname, port } = new URL(service());
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${seconds} s`));
    }, seconds * 1000);
    let head = "";
    socket.on("data", (d) => {
      head += d.toString("latin1");
      if (head.includes("\r\n")) {
        clearTimeout(timer);
        socket.destroy();
        resolve(head.split("\r\n")[0] as string);
      }
    });
    socket.on("error", reject);
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\n` +
        (auth ? `authorization: Bearer ${auth}\r\n` : "") +
        "\r\n",
    );
  });
}

describe("request bodies over a socket", () => {
  it("answers a declared 10 MB body that never arrives with 413 at once, with and without a token", async () => {
    for (const auth of [OPERATOR, null]) {
      expect(await declaredOnly("/workspaces", 10_000_000, auth, 3)).toMatch(/^HTTP\/1\.1 413/);
    }
    expect(await declaredOnly(`/sites/${site.id}/media`, 10_000_000, site.adminKey, 3)).toMatch(/^HTTP\/1\.1 413/);
  });

  it("answers oversized bodies pushed in full with the 413 envelope, never a reset connection", async () => {
    const big = " ".repeat(5 * 1024 * 1024);
    const calls: [string, string, string][] = [
      ["POST", `/sites/${site.id}/media`, site.adminKey],
      ["PATCH", `/sites/${site.id}/collections/posts/items/${itemId}`, site.adminKey],
      ["POST", "/workspaces", OPERATOR],
    ];
    for (let round = 0; round < 8; round++) {
      for (const [method, path, auth] of calls) {
        const r = await fetch(`${service()}${path}`, {
          method,
          headers: { "content-type": "application/json", authorization: `Bearer ${auth}` },
          body: big,
        });
        const body = (await r.json()) as { error: { code: string } };
        expect([r.status, body.error.code], `${method} ${path}`).toEqual([413, "payload_too_large"]);
      }
    }
  });

  it("answers oversized bodies of undeclared size (chunked) with the 413 envelope, also on a route that refuses the URL", async () => {
    const chunked = () => {
      let sent = 0;
      const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
      return new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent >= 3 * 1024 * 1024) return c.close();
          sent += chunk.byteLength;
          c.enqueue(chunk);
        },
      });
    };
    for (let round = 0; round < 5; round++) {
      for (const [method, path, status] of [
        ["POST", `/sites/${site.id}/media`, 413],
        ["PUT", `/sites/${site.id}/collections/Bad%20Slug`, 413],
      ] as const) {
        const r = await fetch(`${service()}${path}`, {
          method,
          headers: { "content-type": "application/json", authorization: `Bearer ${site.adminKey}` },
          body: chunked(),
          duplex: "half",
        } as RequestInit);
        const body = (await r.json()) as { error: { code: string } };
        expect(r.status, `${method} ${path}`).toBe(status);
        expect(body.error.code).toBe("payload_too_large");
      }
    }
  });
});
