// Bench-only Worker: the least any Worker with a SQLite Durable Object can do for a save, so the
// figure of ours (scripts/bench/history.mjs) can be read against it. The front Worker hands the
// client's request to one Durable Object as it came (no checks, no copy); the object reads the
// body, writes it as one row inside a transaction (the same `transactionSync` savepoint and the
// same commit at the end of the event as ours), and answers it back as JSON. No authentication,
// no validation, no revision, audit row, index or trigger: what is left is the runtime's part of
// a save (HTTP in and out, the hop to the object and back, one SQLite write and its commit).
import { DurableObject } from "cloudflare:workers";

export class FloorItems extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS items (id TEXT PRIMARY KEY, data TEXT NOT NULL)");
  }

  async fetch(request) {
    const data = await request.text();
    const id = new URL(request.url).pathname;
    this.ctx.storage.transactionSync(() =>
      this.ctx.storage.sql.exec("INSERT INTO items (id, data) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data", id, data),
    );
    return new Response(`{"item":${data}}`, { headers: { "content-type": "application/json" } });
  }
}

export default {
  fetch(request, env) {
    return env.ITEMS.get(env.ITEMS.idFromName("floor")).fetch(request);
  },
};
