// Runs the built Worker on workerd through Miniflare's API, with a direct
// socket to the Worker: no wrangler dev proxy in front (it caps ~1,000 req/s here).
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";
import { EMBEDDER_NAME, embedderWorker } from "../embedder/options.mjs";

export function buildWorker(outdir, config = "wrangler.toml") {
  // Wrangler resolves a relative --outdir against the config's folder; an absolute one is unambiguous.
  outdir = resolve(outdir);
  if (config === "wrangler.toml") execFileSync(process.execPath, ["embedder/build.mjs"], { stdio: "inherit" });
  execFileSync(
    process.execPath,
    [
      "node_modules/wrangler/bin/wrangler.js",
      "deploy",
      "--dry-run",
      "-c",
      config,
      ...(config === "wrangler.toml" ? ["--env="] : []),
      "--outdir",
      outdir,
    ],
    {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    },
  );
  return `${outdir}/index.js`;
}

/** The built Worker's modules: its bundle and the WebAssembly files wrangler emitted beside it. */
function builtModules(scriptPath) {
  const dir = dirname(resolve(scriptPath));
  const wasm = readdirSync(dir).filter((f) => f.endsWith(".wasm"));
  return {
    modulesRoot: dir,
    modules: [{ type: "ESModule", path: resolve(scriptPath) }, ...wasm.map((f) => ({ type: "CompiledWasm", path: join(dir, f) }))],
  };
}

// The local embedder runs in workerd processes of its own, as Workers AI runs apart from
// the Worker in production: the model's CPU work never queues the site objects. The model
// is compute-bound on workerd's one thread, so one process per core (EMBEDDER_PROCESSES,
// default: the machine's parallelism, at most 4) behind a small balancer. Each process takes
// one request at a time and the next waiting one when it is done, so a process slowed by a
// busy core takes less of a batch instead of holding the others up.
async function startEmbedders(count) {
  const pool = await Promise.all(
    Array.from({ length: count }, async () => {
      const mf = new Miniflare(
        convertV4MiniflareOptions({ workers: [{ ...embedderWorker(), unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }] }] }),
      );
      await mf.ready;
      return { mf, url: await mf.unsafeGetDirectURL(EMBEDDER_NAME) };
    }),
  );
  const idle = [...pool];
  const waiting = [];
  const dispatch = () => {
    while (idle.length && waiting.length) waiting.shift()(idle.shift());
  };
  const release = (member) => {
    idle.push(member);
    dispatch();
  };
  const balancer = createServer((req, res) => {
    let member = null;
    let closed = false;
    res.on("close", () => {
      closed = true;
      if (member) release(member);
    });
    waiting.push((taken) => {
      // The caller gave up while it waited: hand the process on.
      if (closed) return release(taken);
      member = taken;
      const upstream = httpRequest(
        { host: member.url.hostname, port: member.url.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", (err) => res.destroy(err));
      req.pipe(upstream);
    });
    dispatch();
  });
  await new Promise((resolve) => balancer.listen(0, "127.0.0.1", resolve));
  return {
    processes: count,
    address: `127.0.0.1:${balancer.address().port}`,
    dispose: async () => {
      balancer.close();
      balancer.closeAllConnections();
      await Promise.all(pool.map((m) => m.mf.dispose()));
    },
  };
}

/**
 * wrangler.toml's top-level Rate Limiting bindings ([[ratelimits]]), in the shape Miniflare
 * runs locally: { NAME: { namespace_id, simple: { limit, period } } }. Read from the file, so
 * the numbers stay the ones a deployment gets.
 */
export function wranglerRateLimits(config = "wrangler.toml") {
  const text = readFileSync(config, "utf8");
  const out = {};
  // Only top-level blocks: `[[env.production.ratelimits]]` does not start with `[[ratelimits]]`.
  for (const block of text.split(/^\[\[ratelimits\]\]\s*$/m).slice(1)) {
    const body = block.split(/^\[/m)[0];
    const name = /^name\s*=\s*"([^"]+)"/m.exec(body)?.[1];
    const namespace = /^namespace_id\s*=\s*"([^"]+)"/m.exec(body)?.[1];
    const simple = /^simple\s*=\s*\{\s*limit\s*=\s*(\d+)\s*,\s*period\s*=\s*(\d+)\s*\}/m.exec(body);
    if (!name || !namespace || !simple) throw new Error(`${config}: a [[ratelimits]] block this reader does not understand`);
    out[name] = { namespace_id: namespace, simple: { limit: Number(simple[1]), period: Number(simple[2]) } };
  }
  return out;
}

/** The service's Durable Object bindings and their classes, as in wrangler.toml. */
export const SERVICE_DURABLE_OBJECTS = {
  SITE: "Site",
  WORKSPACE: "Workspace",
  HOSTNAME: "Hostname",
  OPERATOR_SESSIONS: "OperatorSessions",
  SIGN_IN_THROTTLE: "SignInThrottle",
  ACCOUNT: "Account",
};

/** The Durable Object bindings a build can have: those whose class its bundle exports (an older commit's exports fewer). */
export function durableObjectsOf(script) {
  // The bundle's last `export {…}`: esbuild writes it before the licence comments that end the file.
  const source = readFileSync(script, "utf8");
  const exported = new Set(
    [...source.slice(source.lastIndexOf("export {")).matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) =>
      m[1].split(",").map((s) =>
        s
          .trim()
          .split(/\s+as\s+/)
          .at(-1),
      ),
    ),
  );
  return Object.fromEntries(Object.entries(SERVICE_DURABLE_OBJECTS).filter(([, cls]) => exported.has(cls)));
}

export async function startWorkerd({
  scriptPath,
  adminToken,
  persistDir,
  vars = {},
  embedderProcesses = Number(process.env.EMBEDDER_PROCESSES) || Math.min(4, availableParallelism()),
  // Serve the dashboard's static files (Miniflare's asset router in front of the Worker, as
  // wrangler.toml's [assets]); benchmarks of the API path leave it out.
  dashboard = true,
  // The Durable Object classes to bind (by binding name); a build of an older commit exports fewer.
  durableObjects = SERVICE_DURABLE_OBJECTS,
  // workerd's V8 inspector on this port (CPU profiles: scripts/bench/profile.mjs).
  inspectorPort,
  // wrangler.toml's Rate Limiting bindings, run by Miniflare, and the site limits' documented
  // defaults. Off by default: the throughput benchmarks drive tens of thousands of uncached reads
  // from one client, which the limits would refuse; they run with the load-test switch instead.
  rateLimits = false,
}) {
  const embedder = await startEmbedders(embedderProcesses);
  let mf;
  try {
    mf = new Miniflare(
      convertV4MiniflareOptions({
        // (Miniflare 5 names the option resourcePersistencePath; defaultPersistRoot is no longer read.)
        ...(persistDir ? { resourcePersistencePath: persistDir } : {}),
        ...(inspectorPort ? { inspectorPort } : {}),
        workers: [
          {
            name: "main",
            ...builtModules(scriptPath),
            compatibilityDate: "2026-11-01",
            compatibilityFlags: ["nodejs_compat"],
            bindings: {
              ADMIN_TOKEN: adminToken,
              SITE_ID_SECRET: "local-site-id-secret-for-workerd-runs",
              AUTH_SECRET: "local-auth-secret-for-workerd-runs",
              LEGACY_SITE_IDS: "refuse",
              LEGACY_WORKSPACE_IDS: "refuse",
              SITE_META_TTL_MS: "1000",
              SSR_ALLOW_PRIVATE_FETCH: "false",
              SEARCH_EMBEDDER: "local",
              SEARCH_VECTOR_INDEX: "sqlite",
              // These hosts listen on plain http (127.0.0.1): a local run (src/http/plain-http.ts).
              LOCAL_HTTP: "true",
              ...(rateLimits ? {} : { RATE_LIMIT_SCALE: "1000" }),
              ...vars,
            },
            ...(rateLimits ? { ratelimits: wranglerRateLimits() } : {}),
            // Media (wrangler.toml): Miniflare's R2 (persisted with the rest when persistDir is set;
            // the bucket name as wrangler names it) and its local Images binding on sharp.
            r2Buckets: { MEDIA: "open-content-edge-media" },
            images: { binding: "IMAGES" },
            serviceBindings: { EMBEDDER: { external: { address: embedder.address, http: {} } } },
            durableObjects: Object.fromEntries(
              Object.entries(durableObjects).map(([binding, className]) => [binding, { className, useSQLite: true }]),
            ),
            // The dashboard's files, with the Worker in front of them as in wrangler.toml.
            ...(dashboard
              ? {
                  assets: {
                    directory: "dist/public",
                    binding: "ASSETS",
                    routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: true },
                  },
                }
              : {}),
            unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
          },
        ],
      }),
    );
    await mf.ready;
  } catch (err) {
    // The embedders are processes of their own: they must not outlive a failed start.
    await mf?.dispose().catch(() => undefined);
    await embedder.dispose();
    throw err;
  }
  const url = await mf.unsafeGetDirectURL("main");
  return {
    mf,
    base: url.origin,
    embedderProcesses: embedder.processes,
    dispose: async () => {
      await mf.dispose();
      await embedder.dispose();
    },
  };
}

/**
 * The service on workerd with its V8 inspector on a port of its own, for the benches that profile
 * it (scripts/bench/profile.mjs, memory.mjs): the operator token "op", no dashboard, one embedder.
 */
export async function startInspectedWorkerd(scriptPath, options = {}) {
  const inspectorPort = 9300 + Math.floor(Math.random() * 500);
  const host = await startWorkerd({ scriptPath, adminToken: "op", dashboard: false, embedderProcesses: 1, inspectorPort, ...options });
  return { ...host, inspectorPort };
}

/**
 * The workerd processes this script started (its children): other workerd processes on the
 * machine (someone else's tests) are not ours to count.
 */
export function workerdPids() {
  let out = "";
  try {
    out = execFileSync("pgrep", ["-P", String(process.pid), "-f", "workerd"]).toString();
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
  return out.trim().split("\n").filter(Boolean).map(Number);
}

/** When a process started (clock ticks since boot), from /proc. */
function startTime(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[19]);
  } catch {
    return 0;
  }
}

/** The service's workerd: the last one this script started (the embedders start first). */
export function servicePid() {
  return workerdPids()
    .sort((a, b) => startTime(a) - startTime(b))
    .at(-1);
}

/** This script's workerd processes, oldest first (the embedders, then the service). */
export function workerdPidsByAge() {
  return workerdPids().sort((a, b) => startTime(a) - startTime(b));
}

/** Resident memory (`VmRSS`) or its peak so far (`VmHWM`) of a process, in MB. */
export function residentMb(pid, field = "VmRSS") {
  try {
    return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

/** User + system CPU time (ms) of this script's workerd processes (or `pids`), read from /proc (10 ms ticks). */
export function workerdCpuMs(pids = workerdPids()) {
  return pids.reduce((sum, pid) => {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      return sum + ((Number(f[11]) + Number(f[12])) * 1000) / 100;
    } catch {
      return sum;
    }
  }, 0);
}

/**
 * CPU time (ns) of process `pid`, all its threads: the sum of each thread's `sum_exec_runtime`
 * (/proc/<pid>/task/<tid>/schedstat, the scheduler's own nanosecond count). /proc/<pid>/stat counts
 * in 10 ms ticks, too coarse to read a few hundred requests at a time (scripts/bench/floor.mjs's
 * interleaved rounds). A thread that exits between two readings takes its time with it; workerd's
 * threads live as long as the process.
 */
export function processCpuNs(pid) {
  let total = 0;
  let tids = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const tid of tids) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread exited while we read
    }
  }
  return total;
}

/**
 * CPU time (ms, to the nanosecond) of this script's workerd processes (or `pids`), from
 * `processCpuNs`. `workerdCpuMs` reads 10 ms ticks, which over a batch of 100 requests is a
 * resolution of 0.1 ms per request; this one is exact.
 */
export function workerdSchedCpuMs(pids = workerdPids()) {
  let ns = 0;
  for (const pid of pids) ns += processCpuNs(pid);
  return ns / 1e6;
}

/** User and system CPU time (ms) apart, as `workerdCpuMs` sums them. */
export function workerdCpuSplitMs(pids = workerdPids()) {
  return pids.reduce(
    (sum, pid) => {
      try {
        const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
        return { user: sum.user + Number(f[11]) * 10, sys: sum.sys + Number(f[12]) * 10 };
      } catch {
        return sum;
      }
    },
    { user: 0, sys: 0 },
  );
}

/** The customer's reverse-proxy Worker (proxy/) in its own workerd process, in front of `ssrUrl`. */
export async function startProxy({ scriptPath, ssrUrl, serviceToken }) {
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      workers: [
        {
          name: "proxy",
          modules: true,
          scriptPath,
          compatibilityDate: "2026-11-01",
          bindings: { SSR_URL: ssrUrl, SERVICE_TOKEN: serviceToken },
          unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
        },
      ],
    }),
  );
  await mf.ready;
  return { mf, base: (await mf.unsafeGetDirectURL("proxy")).origin };
}

/**
 * A bench-only Worker (one module, optionally with SQLite Durable Objects: `{ BINDING: "Class" }`)
 * alone in a workerd process of its own, on a direct socket. `pids`: that process, so its CPU is
 * counted apart from the service's.
 */
export async function startBenchWorker(name, scriptPath, durableObjects = {}) {
  const before = new Set(workerdPids());
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      workers: [
        {
          name,
          modules: true,
          scriptPath,
          compatibilityDate: "2026-11-01",
          compatibilityFlags: ["nodejs_compat"],
          durableObjects: Object.fromEntries(
            Object.entries(durableObjects).map(([binding, className]) => [binding, { className, useSQLite: true }]),
          ),
          unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
        },
      ],
    }),
  );
  await mf.ready;
  const pids = workerdPids().filter((p) => !before.has(p));
  return { base: (await mf.unsafeGetDirectURL(name)).origin, pids, dispose: () => mf.dispose() };
}

/**
 * The bench's floor Worker (scripts/bench/cache-floor-worker.js) alone, in a workerd process of its
 * own. `?hop`: its answer comes from the Durable Object (SQLite-backed, as the site object is).
 */
export function startCacheFloor() {
  return startBenchWorker("floor", "scripts/bench/cache-floor-worker.js", { FLOOR: "FloorObject" });
}

/**
 * The bench's save floor Worker (scripts/bench/save-floor-worker.js: a front Worker and one SQLite
 * Durable Object that writes a PATCH body as one row in a transaction and answers it back) alone,
 * in a workerd process of its own.
 */
export function startSaveFloor() {
  return startBenchWorker("save-floor", "scripts/bench/save-floor-worker.js", { ITEMS: "FloorItems" });
}
