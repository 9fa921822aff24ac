// `BENCH_ONLY=media npm run bench` (or `npm run build && node scripts/bench/media.mjs`): media
// uploads on plain workerd with Miniflare's R2 and Images bindings (scripts/workerd-host.mjs).
//  1. Upload throughput: BENCH_MEDIA_FILES (100) distinct 2 MB JPEGs as raw bodies, BENCH_MEDIA_PARALLEL
//     (4) at a time, then BENCH_MEDIA_LARGE (10) distinct 20 MB JPEGs (the same bytes in total), with
//     the service workerd's resident memory sampled every 25 ms: the peak of each phase above the
//     idle baseline must not grow with the file size (the body is streamed into R2, never held).
//  2. A variant's time to first byte (fetch resolves on the response headers): the first request
//     (made by the Images binding, put in R2 and the cache) and the next one, BENCH_MEDIA_VARIANTS (10) images.
// Prints tables, and "(load X)" with the 1-minute load average when each phase ran.
import { loadavg } from "node:os";
import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { api, must, percentile } from "../lib.mjs";
import { buildWorker, residentMb, servicePid, startWorkerd } from "../workerd-host.mjs";

if (process.env.BENCH_ONLY && process.env.BENCH_ONLY !== "media") process.exit(0);

const FILES = Number(process.env.BENCH_MEDIA_FILES ?? 100);
const LARGE = Number(process.env.BENCH_MEDIA_LARGE ?? 10);
const PARALLEL = Number(process.env.BENCH_MEDIA_PARALLEL ?? 4);
const VARIANTS = Number(process.env.BENCH_MEDIA_VARIANTS ?? 10);
const MB = 1000 * 1000;
const operator = "bench-operator";
const load = () => loadavg()[0].toFixed(1);
const asc = (a) => [...a].sort((x, y) => x - y);

/**
 * A real photo-like JPEG (2400×1600, noise over gradients, so it does not compress to nothing),
 * padded after its end marker to `bytes`: decoders stop at the marker, the hash differs per `n`.
 */
const width = 2400;
const height = 1600;
const raw = Buffer.alloc(width * height * 3);
for (let y = 0; y < height; y++)
  for (let x = 0; x < width; x++) {
    const i = (y * width + x) * 3;
    raw[i] = (x * 255) / width;
    raw[i + 1] = (y * 255) / height;
    raw[i + 2] = Math.random() * 255;
  }
const photo = await sharp(raw, { raw: { width, height, channels: 3 } })
  .jpeg({ quality: 80 })
  .toBuffer();
function fileOf(bytes, n) {
  if (photo.length > bytes) throw new Error(`the base photo is ${photo.length} bytes, more than ${bytes}`);
  const out = Buffer.alloc(bytes);
  photo.copy(out);
  randomBytes(bytes - photo.length).copy(out, photo.length);
  out.writeUInt32BE(n, photo.length);
  return out;
}

const script = buildWorker(".bench/media-build");
const host = await startWorkerd({ scriptPath: script, adminToken: operator, dashboard: false, embedderProcesses: 1 });
try {
  const base = host.base;
  const pid = servicePid();
  const { site } = await must(api(base, "POST", "/sites", operator, { name: "Media bench", plan: "seo_engine" }), "site");
  const key = site.adminKey;
  const upload = async (body, name) => {
    const r = await fetch(`${base}/sites/${site.id}/media/files`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "x-file-name": name, "content-length": String(body.length) },
      body,
      duplex: "half",
    });
    const text = await r.text();
    if (r.status !== 201) throw new Error(`upload ${name}: ${r.status} ${text}`);
    return JSON.parse(text).media;
  };
  // One warm-up upload (the isolate, the object, the bucket).
  await upload(fileOf(2 * MB, 999_999), "warm.jpg");
  const idle = residentMb(pid);

  async function phase(label, count, bytes) {
    const files = Array.from({ length: count }, (_, i) => fileOf(bytes, i + (bytes > 2 * MB ? 100_000 : 0)));
    let peak = residentMb(pid);
    const sampler = setInterval(() => (peak = Math.max(peak, residentMb(pid))), 25);
    const l0 = load();
    const media = [];
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < files.length) {
          const i = next++;
          media.push(await upload(files[i], `${label}-${i}.jpg`));
        }
      }),
    );
    const s = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    return {
      row: {
        files: `${count} × ${(bytes / MB).toFixed(0)} MB`,
        parallel: PARALLEL,
        seconds: s.toFixed(1),
        "files/s": (count / s).toFixed(1),
        "MB/s": ((count * bytes) / MB / s).toFixed(1),
        "idle RSS MB": idle,
        "peak RSS MB": peak,
        "peak − idle MB": peak - idle,
        load: `(load ${l0}→${load()})`,
      },
      media,
    };
  }

  const small = await phase("small", FILES, 2 * MB);
  const large = await phase("large", LARGE, 20 * MB);
  console.log(`\nMedia uploads (raw bodies streamed into R2; service workerd pid ${pid} resident memory sampled every 25 ms)`);
  console.table([small.row, large.row]);

  // Variant time to first byte: first (made by the Images binding, kept) and second (kept copy).
  const l0 = load();
  const first = [];
  const again = [];
  const cache = [];
  for (const m of small.media.slice(0, VARIANTS)) {
    const w640 = m.srcset
      .split(", ")
      .find((c) => c.endsWith(" 640w"))
      .split(" ")[0];
    for (const out of [first, again]) {
      const t0 = performance.now();
      const r = await fetch(w640, { headers: { accept: "image/webp,image/*" } });
      out.push(performance.now() - t0);
      cache.push(r.headers.get("x-cache"));
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`variant ${w640}: ${r.status}`);
    }
  }
  const ms = (a, p) => percentile(asc(a), p).toFixed(1);
  console.log(`\nVariant 640 px WebP of a 2400×1600 JPEG, time to first byte (ms), ${VARIANTS} images (load ${l0}→${load()})`);
  console.table([
    { request: "first (made by the Images binding, put in R2)", p50: ms(first, 50), p95: ms(first, 95), max: ms(first, 100) },
    { request: "again (kept copy)", p50: ms(again, 50), p95: ms(again, 95), max: ms(again, 100) },
  ]);
  console.log(`X-Cache seen: ${[...new Set(cache)].join(", ")}`);
} finally {
  await host.dispose();
}
