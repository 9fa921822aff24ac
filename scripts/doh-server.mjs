// A DNS-over-HTTPS resolver for local runs and tests: the JSON flavour Cloudflare's public
// resolver answers (`GET /dns-query?name=…&type=TXT`, `accept: application/dns-json`), serving
// only the records it was given. npm start runs one so a laptop user can publish the TXT record
// a custom hostname asks for; the tests start their own. Records are managed over HTTP:
//   PUT    /records/<name>?type=TXT   body: the value (TXT; A/AAAA: the address)  → 204
//   DELETE /records/<name>?type=TXT                                              → 204
//   GET    /records                                                              → every record as JSON
// With `file`, records are kept in that JSON file across restarts.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";

const TYPES = { A: 1, AAAA: 28, CNAME: 5, TXT: 16 };

export async function startDohServer({ port = 0, host = "127.0.0.1", file } = {}) {
  /** `${name}|${type}` → values */
  const records = new Map(file && existsSync(file) ? Object.entries(JSON.parse(readFileSync(file, "utf8"))) : []);
  const save = () => file && writeFileSync(file, JSON.stringify(Object.fromEntries(records), null, 2));
  const keyOf = (name, type) => `${name.toLowerCase().replace(/\.$/, "")}|${(type || "TXT").toUpperCase()}`;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/dns-query" && req.method === "GET") {
      const name = url.searchParams.get("name") ?? "";
      const type = (url.searchParams.get("type") ?? "A").toUpperCase();
      const values = records.get(keyOf(name, type)) ?? [];
      const known = [...records.keys()].some((k) => k.startsWith(`${name.toLowerCase().replace(/\.$/, "")}|`));
      const body = {
        Status: values.length || known ? 0 : 3,
        TC: false,
        RD: true,
        RA: true,
        AD: false,
        CD: false,
        Question: [{ name, type: TYPES[type] ?? 0 }],
        ...(values.length
          ? { Answer: values.map((v) => ({ name, type: TYPES[type] ?? 0, TTL: 60, data: type === "TXT" ? JSON.stringify(v) : v })) }
          : {}),
      };
      res.writeHead(200, { "content-type": "application/dns-json" }).end(JSON.stringify(body));
      return;
    }
    if (url.pathname === "/records" && req.method === "GET") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(Object.fromEntries(records)));
      return;
    }
    const m = /^\/records\/([^/]+)$/.exec(url.pathname);
    if (m && (req.method === "PUT" || req.method === "DELETE")) {
      const key = keyOf(decodeURIComponent(m[1]), url.searchParams.get("type"));
      if (req.method === "DELETE") {
        records.delete(key);
        save();
        return void res.writeHead(204).end();
      }
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        records.set(key, [body.trim()]);
        save();
        res.writeHead(204).end();
      });
      return;
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  // A resolver for tests and local runs never keeps its process alive by itself.
  server.unref();
  const address = server.address();
  const origin = `http://${host}:${address.port}`;
  return {
    origin,
    url: `${origin}/dns-query`,
    set: (name, value, type = "TXT") => {
      records.set(keyOf(name, type), [value]);
      save();
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
