// A CPU profile of the service's Worker under load, through workerd's V8 inspector:
//   BENCH_ONLY=profile npm run bench    (BENCH_SCRIPT=<built index.js>, BENCH_PROFILE=<mode>)
//     modes: list|item|miss-list|miss-item|random-token|wrong-token|rate-limited|dashboard-random|save|import
// (default: a fresh build of the working tree, the cached list). Several read or refusal modes,
// comma-separated (`BENCH_PROFILE=list,random-token,wrong-token,dashboard-random,rate-limited`), are profiled
// one after another on the same workerd and compared with the first in a last table (thread time
// without idle, split into JavaScript, native work and GC). Seeds 1,000 posts on a Pro
// site, warms the read, profiles BENCH_SECONDS (5) of autocannon at 32 connections, and prints
// the functions with the most self time and the bundle's parts by inclusive time. The profile
// itself goes to .bench/profile.cpuprofile (Chromium's DevTools opens it). `save`: PATCHes of a
// published 5 KB item on a starter site (scripts/bench/history.mjs's), one at a time, with no
// other items seeded.
// `import`: one CSV import of BENCH_IMPORT_ROWS (2,000) published ~2 KB rows (scripts/bench/import-run.mjs),
// profiled from the upload to the end of the write; "per request" then means per row.
import autocannon from "autocannon";
import { writeFileSync } from "node:fs";
import { BENCH_POST_FIELDS, api, missPaths, must, seedItems } from "../lib.mjs";
import { waitForIndex } from "./search.mjs";
import { buildWorker, servicePid, startInspectedWorkerd, workerdCpuMs } from "../workerd-host.mjs";
import { benchImportCsv, timedImport } from "./import-run.mjs";
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";

/** `length` random characters of the id alphabet (src/contract/ids.ts). */
const random = (length) => Array.from(randomBytes(length), (b) => "abcdefghijklmnopqrstuvwxyz234567"[b & 31]).join("");

const script = process.env.BENCH_SCRIPT || buildWorker(".bench/profile-build");
const modes = (process.env.BENCH_PROFILE || "list").split(",");
const mode = modes[0];
if (modes.length > 1 && modes.some((m) => m === "save" || m === "import" || m.startsWith("miss")))
  throw new Error("several modes: only list, item and the refusal modes");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
// The refusal modes run with wrangler.toml's Rate Limiting bindings, as `BENCH_ONLY=refused` does.
const host = await startInspectedWorkerd(script, { rateLimits: modes.includes("rate-limited") });
const port = host.inspectorPort;

try {
  const { base } = host;
  const importing = mode === "import";
  const save = mode === "save";
  // `save` profiles the saves scripts/bench/history.mjs measures: a starter site, a title and a rich-text body.
  const { site } = await must(api(base, "POST", "/sites", "op", { name: "Profile", plan: save ? "starter" : "pro" }), "site");
  const fields =
    save || importing
      ? [
          { key: "title", type: "text" },
          { key: "body", type: "richText" },
        ]
      : BENCH_POST_FIELDS;
  await must(api(base, "PUT", `/sites/${site.id}/collections/posts`, site.adminKey, { fields }), "collection");
  const saveBody = (n) =>
    JSON.stringify({
      data: {
        body: Array.from(
          { length: 6 },
          (_, i) => `<p>Paragraph ${i} of save ${n}: ${"the quick brown fox jumps over the lazy dog ".repeat(18).trim()}.</p>`,
        ).join(""),
      },
    });
  if (save) {
    const { item } = await must(
      api(base, "POST", `/sites/${site.id}/collections/posts/items`, site.adminKey, {
        slug: "five-kb",
        publish: true,
        data: { title: "Five KB" },
      }),
      "item",
    );
    site.saveItem = item.id;
  } else if (!importing)
    await seedItems(base, site.id, site.adminKey, "posts", Number(process.env.BENCH_ITEMS ?? 1000), (i) => ({
      slug: `post-${i}`,
      publish: true,
      data: {
        title: `Post number ${i}`,
        summary: `A short summary for post ${i}.`,
        body: `<p>Body of post ${i}.</p>`,
        category: ["news", "guides"][i % 2],
        date: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString(),
        cover: { url: `https://img.example.com/${i}.jpg`, alt: `Cover ${i}`, width: 1600, height: 900 },
      },
    }));
  if (!save && !importing) await waitForIndex(base, site.id, site.adminKey);
  const items = `/v1/${site.token}/collections/posts/items`;
  const pathsOf = (mode) =>
    ({
      list: [`${items}?page=3&limit=24&sort=-date`],
      item: [`${items}/post-424`],
      // The compare bench's misses (scripts/lib.mjs missPaths): each URL read once.
      "miss-list": missPaths(site.token, "list", Number(process.env.BENCH_ITEMS ?? 1000)),
      "miss-item": missPaths(site.token, "item", Number(process.env.BENCH_ITEMS ?? 1000)),
      // Refusals (scripts/bench/api.mjs benchRefused): never-seen site ids, wrong tokens of the real site.
      "random-token": Array.from(
        { length: 50_000 },
        () => `/v1/pk_${random(16)}_${random(24)}/collections/posts/items?page=3&limit=24&sort=-date`,
      ),
      // A client over its `reads` quota reading lists nobody read before (api.mjs benchRefused).
      "rate-limited": missPaths(site.token, "list", Number(process.env.BENCH_ITEMS ?? 1000)),
      "dashboard-random": Array.from({ length: 50_000 }, () => `/sites/${random(16)}/collections/posts/items?page=3&limit=24`),
      "wrong-token": Array.from(
        { length: 50_000 },
        () => `/v1/pk_${site.id}_${random(24)}/collections/posts/items?page=3&limit=24&sort=-date`,
      ),
      save: [`/sites/${site.id}/collections/posts/items/${site.saveItem}`],
    })[mode];
  const limitedClient = { "cf-connecting-ip": "203.0.113.7" };
  // Uncached single items spend the client's `reads` quota (a cached read is not counted): one
  // cursor across the modes, so a second rate-limited mode spends it on items nobody read yet.
  const spendPaths = missPaths(site.token, "item", Number(process.env.BENCH_ITEMS ?? 1000));
  let spent = 0;

  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const target = targets.find((t) => /main/.test(t.title ?? t.id ?? "")) ?? targets[0];
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((r, j) => ((ws.onopen = r), (ws.onerror = j)));
  let id = 0;
  const waiting = new Map();
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.id && waiting.has(msg.id)) waiting.get(msg.id)(msg);
  };
  const call = (method, params = {}) =>
    new Promise((resolve) => {
      waiting.set(++id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await call("Profiler.enable");
  await call("Profiler.setSamplingInterval", { interval: 100 });
  // The service process's whole CPU (every thread: SQLite, I/O, GC helpers) beside the sampled JS thread.
  const pid = servicePid();
  const rowsToImport = Number(process.env.BENCH_IMPORT_ROWS ?? 2000);
  const profileImport = async () => {
    const t = await timedImport(base, site, "posts", benchImportCsv(rowsToImport));
    console.log(
      `import of ${rowsToImport} rows: upload ${t.uploadSecs.toFixed(1)} s, dry run ${t.checkSecs.toFixed(1)} s, write ${t.writeSecs.toFixed(1)} s` +
        ` (${Math.round(rowsToImport / t.writeSecs)} rows/s written), done ${JSON.stringify(t.end.done)}`,
    );
    const secs = t.uploadSecs + t.checkSecs + t.writeSecs;
    return { requests: { total: rowsToImport, average: rowsToImport / secs }, non2xx: 0 };
  };

  const summary = [];
  for (const [round, mode] of modes.entries()) {
    const paths = pathsOf(mode);
    if (mode === "list" || mode === "item") await (await fetch(`${base}${paths[0]}`)).arrayBuffer();
    const client = mode === "rate-limited" ? limitedClient : {};
    if (mode === "rate-limited")
      for (let i = 0, refused = false; !refused; i++) {
        if (i > 1000 || spent >= spendPaths.length) throw new Error("the reads limit never refused");
        const res = await fetch(`${base}${spendPaths[spent++]}`, { headers: client });
        await res.arrayBuffer();
        refused = res.status === 429;
      }
    const headersOf = (path) =>
      mode === "dashboard-random"
        ? { authorization: `Bearer sk_${path.split("/")[2]}_${random(40)}` }
        : save
          ? { authorization: `Bearer ${site.adminKey}`, "content-type": "application/json" }
          : client;
    let n = 0;
    await call("Profiler.start");
    const cpu0 = workerdCpuMs([pid]);
    const r = importing
      ? await profileImport()
      : await autocannon({
          url: `${base}${paths[0]}`,
          connections: mode.startsWith("miss") ? 8 : save ? 1 : 32,
          ...(mode.startsWith("miss") ? { amount: paths.length } : { duration: SECONDS }),
          requests: [
            {
              setupRequest: (req) => {
                const path = paths[n++ % paths.length];
                if (save) return { ...req, path, method: "PATCH", body: saveBody(n), headers: { ...req.headers, ...headersOf(path) } };
                return { ...req, path, headers: { ...req.headers, ...headersOf(path) } };
              },
            },
          ],
        });
    const processMs = workerdCpuMs([pid]) - cpu0;
    const { result } = await call("Profiler.stop");
    const profile = result.profile;
    writeFileSync(modes.length > 1 ? `.bench/profile-${round}-${mode}.cpuprofile` : ".bench/profile.cpuprofile", JSON.stringify(profile));
    console.log(`\n${mode}: ${r.requests.total} requests, ${Math.round(r.requests.average)} req/s, ${r.non2xx} non-2xx`);

    // Self time per function, and inclusive time per function.
    const dt = new Map();
    for (let i = 0; i < profile.samples.length; i++)
      dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
    const byId = new Map(profile.nodes.map((x) => [x.id, x]));
    const name = (x) => `${x.callFrame.functionName || "(anonymous)"} ${x.callFrame.url.split("/").at(-1)}:${x.callFrame.lineNumber + 1}`;
    const self = new Map();
    let total = 0;
    // The thread waiting for work is sampled as "(idle)": a row with fewer requests per second
    // would count more of it per request, so it is left out of the per-request figures.
    let idle = 0;
    let program = 0;
    let gc = 0;
    for (const x of profile.nodes) {
      const t = dt.get(x.id) ?? 0;
      const fn = x.callFrame.functionName;
      if (fn === "(idle)") {
        idle += t;
        continue;
      }
      if (fn === "(program)") program += t;
      if (fn === "(garbage collector)") gc += t;
      total += t;
      self.set(name(x), (self.get(name(x)) ?? 0) + t);
    }
    const inclusive = new Map();
    const walk = (x, onStack) => {
      let t = x.callFrame.functionName === "(idle)" ? 0 : (dt.get(x.id) ?? 0);
      for (const c of x.children ?? []) t += walk(byId.get(c), new Set([...onStack, name(x)]));
      if (!onStack.has(name(x))) inclusive.set(name(x), (inclusive.get(name(x)) ?? 0) + t);
      return t;
    };
    walk(profile.nodes[0], new Set());
    const per = (us) => (us / 1000 / r.requests.total).toFixed(4);
    console.log(
      `profiled ${(total / 1000).toFixed(0)} ms of the Worker's thread busy (${per(total)} ms/req; idle ${(idle / 1000).toFixed(0)} ms left out); the workerd process used ${(processMs / r.requests.total).toFixed(3)} ms CPU/req (/proc, 10 ms ticks; the profiler's own cost included); ms per request:`,
    );
    const top = modes.length > 1 ? 15 : 30;
    console.table(
      [...self]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([fn, t]) => ({ self: fn, "ms/req": per(t), "%": ((100 * t) / total).toFixed(1) })),
    );
    console.table(
      [...inclusive]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top + 10)
        .map(([fn, t]) => ({ inclusive: fn, "ms/req": per(t), "%": ((100 * t) / total).toFixed(1) })),
    );
    const requests = r.requests.total;
    summary.push({
      mode,
      "req/s": Math.round(r.requests.average),
      "thread busy ms/req": total / 1000 / requests,
      "JS ms/req": (total - program - gc) / 1000 / requests,
      "native ms/req": program / 1000 / requests,
      "GC ms/req": gc / 1000 / requests,
      "process CPU ms/req": processMs / requests,
    });
  }
  if (summary.length > 1) {
    const [first] = summary;
    console.log(
      `\nOne after another on one workerd; "vs ${first.mode}": each figure over the first mode's (load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} after)`,
    );
    console.table(
      summary.map((s) => ({
        mode: s.mode,
        "req/s": s["req/s"],
        ...Object.fromEntries(
          ["thread busy ms/req", "JS ms/req", "native ms/req", "GC ms/req", "process CPU ms/req"].map((k) => [
            k,
            `${s[k].toFixed(4)} (${(s[k] / first[k]).toFixed(2)}x)`,
          ]),
        ),
      })),
    );
  }
  ws.close();
} finally {
  await host.dispose();
}
