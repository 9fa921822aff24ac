// `npm run eval:search`: retrieval quality of each embedding model on eval/ (320
// items over 16 topics, 90 paraphrase queries, 14 off-topic and 14 non-English).
// Items are embedded from the same text the site embeds (actors/site/search/embed-text.ts).
// Prints recall@5 and MRR (the target must also clear the threshold), the share of
// off-topic / non-English queries that return anything, and a threshold sweep.
// Local model: always. Workers AI: when CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN are set.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";
import { embedderWorker } from "../embedder/options.mjs";

// The site's own TypeScript (the embedded text, the language check, the models), bundled
// for Node, so the evaluation scores exactly what the site indexes.
mkdirSync(".bench", { recursive: true });
await build({
  stdin: {
    contents: `export { embeddingText } from "./actors/site/search/embed-text";
      export { looksEnglish } from "./src/search/language";
      export { LOCAL_MODEL, MODELS, WORKERS_AI_MODEL } from "./src/search/models";
      export { decode, rowCodes } from "./actors/site/search/vector-codes";`,
    resolveDir: process.cwd(),
    loader: "ts",
  },
  bundle: true,
  format: "esm",
  platform: "node",
  outfile: ".bench/eval-lib.mjs",
  logLevel: "warning",
});
const { embeddingText, looksEnglish, LOCAL_MODEL, MODELS, WORKERS_AI_MODEL, decode, rowCodes } = await import(
  pathToFileURL(".bench/eval-lib.mjs").href
);
import { TOPICS } from "../eval/items.mjs";
import { NON_ENGLISH, OFF_TOPIC, PARAPHRASES } from "../eval/queries.mjs";

const COLLECTION = {
  fields: [
    { key: "title", type: "text", indexed: true },
    { key: "summary", type: "text", indexed: true },
  ],
};
const items = Object.entries(TOPICS).flatMap(([topic, list]) => list.map(([slug, title, summary]) => ({ topic, slug, title, summary })));

async function localEmbedder() {
  execFileSync(process.execPath, ["embedder/build.mjs"], { stdio: "inherit" });
  const mf = new Miniflare(convertV4MiniflareOptions({ workers: [embedderWorker()] }));
  const embed = async (texts) => {
    const out = [];
    for (let i = 0; i < texts.length; i += 64) {
      const res = await mf.dispatchFetch("http://embedder/", { method: "POST", body: JSON.stringify({ texts: texts.slice(i, i + 64) }) });
      if (!res.ok) throw new Error(`embedder: ${res.status} ${await res.text()}`);
      out.push(...(await res.json()).vectors);
    }
    return out;
  };
  return { model: LOCAL_MODEL, runtime: "local embedder Worker on workerd (Miniflare)", embed, close: () => mf.dispose() };
}

function workersAiEmbedder() {
  const account = process.env.CLOUDFLARE_ACCOUNT_ID;
  const token = process.env.CLOUDFLARE_API_TOKEN;
  if (!account || !token) return null;
  const embed = async (texts) => {
    const out = [];
    for (let i = 0; i < texts.length; i += 100) {
      const res = await fetch(`https://api.cloudflare.com/client/v4/accounts/${account}/ai/run/${WORKERS_AI_MODEL}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ text: texts.slice(i, i + 100) }),
      });
      const body = await res.json();
      if (!res.ok || !body.success) throw new Error(`Workers AI: ${res.status} ${JSON.stringify(body.errors ?? body)}`);
      out.push(...body.result.data);
    }
    return out;
  };
  return { model: WORKERS_AI_MODEL, runtime: "Workers AI REST API", embed, close: async () => {} };
}

const unit = (v) => {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / n);
};
const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);

/** An item's vector as the local index stores it: int8 codes (actors/site/search/vector-codes.ts). */
const asCodes = (v) => Array.from(decode(rowCodes(Float32Array.from(v))));

/** `codes`: score the items' vectors as the local index holds them (Vectorize keeps float32). */
async function evaluate(embedder, codes = false) {
  const info = MODELS[embedder.model];
  const texts = items.map((it) => embeddingText(COLLECTION, { title: it.title, summary: it.summary }, info.maxInputChars));
  const itemVecs = (await embedder.embed(texts)).map(unit).map((v) => (codes ? asCodes(v) : v));
  // As the site does: a query that is not English gets no results and never reaches the model.
  const ranked = async (queries) =>
    (await embedder.embed(queries)).map((q, qi) => {
      if (!looksEnglish(queries[qi])) return [{ i: -1, score: -Infinity }];
      const v = unit(q);
      return itemVecs.map((iv, i) => ({ i, score: dot(v, iv) })).sort((a, b) => b.score - a.score);
    });
  const para = await ranked(PARAPHRASES.map(([q]) => q));
  const off = await ranked(OFF_TOPIC);
  const foreign = await ranked(NON_ENGLISH);

  const at = (threshold) => {
    let hits = 0;
    let rr = 0;
    para.forEach((list, qi) => {
      const target = items.findIndex((it) => it.slug === PARAPHRASES[qi][1]);
      const kept = list.filter((m) => m.score >= threshold);
      const rank = kept.findIndex((m) => m.i === target);
      if (rank >= 0 && rank < 5) hits++;
      if (rank >= 0) rr += 1 / (rank + 1);
    });
    const fp = (lists) => lists.filter((l) => l[0].score >= threshold).length / lists.length;
    return { threshold, recall5: hits / para.length, mrr: rr / para.length, offTopicFP: fp(off), nonEnglishFP: fp(foreign) };
  };
  const fmt = (r) => ({
    threshold: r.threshold.toFixed(2),
    "recall@5": r.recall5.toFixed(3),
    MRR: r.mrr.toFixed(3),
    "off-topic FP": `${(r.offTopicFP * 100).toFixed(1)}%`,
    "non-English FP": `${(r.nonEnglishFP * 100).toFixed(1)}%`,
  });
  const sweep = [];
  let best = null;
  for (let t = 0.1; t <= 0.751; t += 0.05) {
    const r = at(t);
    sweep.push(fmt(r));
    // The threshold rule: most targets found in the top 5, least queries wrongly answered.
    const j = r.recall5 - Math.max(r.offTopicFP, r.nonEnglishFP);
    if (!best || j > best.j + 1e-9) best = { j, threshold: t };
  }
  const chosen = at(info.threshold);
  const top1 = (lists) => lists.map((l) => l[0].score).sort((a, b) => b - a);
  const refused = PARAPHRASES.filter(([q]) => !looksEnglish(q)).length + OFF_TOPIC.filter((q) => !looksEnglish(q)).length;
  return { chosen, sweep, fmt, best, refused, offMax: top1(off)[0], foreignMax: top1(foreign)[0] };
}

const embedders = [await localEmbedder(), workersAiEmbedder()].filter(Boolean);
if (embedders.length === 1) console.log("Workers AI: skipped (set CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN to include it)");
for (const e of embedders) {
  try {
    const r = await evaluate(e);
    console.log(`\n${e.model} on ${e.runtime}: ${items.length} items, ${Object.keys(TOPICS).length} topics`);
    console.log(`${PARAPHRASES.length} paraphrase, ${OFF_TOPIC.length} off-topic, ${NON_ENGLISH.length} non-English queries`);
    console.log(`highest top-1 score of an off-topic query ${r.offMax.toFixed(3)}, of a non-English query ${r.foreignMax.toFixed(3)}`);
    console.log(`English queries refused by the language check: ${r.refused}`);
    console.log("\nthreshold sweep:");
    console.table(r.sweep);
    console.log(`best threshold by recall@5 − worst false-positive rate: ${r.best.threshold.toFixed(2)}`);
    console.log(`at the configured threshold (src/search/models.ts):`);
    console.table([r.fmt(r.chosen)]);
    if (e.model === LOCAL_MODEL) {
      console.log("the same, with the items' vectors as the local index stores them (int8 codes):");
      console.table([r.fmt((await evaluate(e, true)).chosen)]);
    }
  } finally {
    await e.close();
  }
}
