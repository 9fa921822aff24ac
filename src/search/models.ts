/**
 * What search knows about each embedding model. Vectors are only ever compared
 * with vectors of the same model, and the relevance threshold is the model's:
 * cosine scores of different models live on different scales.
 *
 * Thresholds come from `npm run eval:search` (docs/search.md shows the runs).
 */
export interface ModelInfo {
  dimensions: number;
  /** Matches scoring below this cosine similarity are not relevant enough to show. */
  threshold: number;
  /** Longest text embedded, in characters; longer text is cut at a word boundary. */
  maxInputChars: number;
}

export const LOCAL_MODEL = "use-lite@energetic-ai-0.2.0";
export const WORKERS_AI_MODEL = "@cf/baai/bge-small-en-v1.5";

export const MODELS: Readonly<Record<string, ModelInfo>> = {
  // Universal Sentence Encoder lite: 0.55 maximises recall@5 minus the worst false-positive rate on eval/.
  // A sentence encoder: a title, a summary and the start of the body carry what it can use, and its cost
  // grows with every token (~0.5 ms a word on one core), so it reads at most 400 characters.
  [LOCAL_MODEL]: { dimensions: 512, threshold: 0.55, maxInputChars: 400 },
  // bge-small-en-v1.5 (512 input tokens, ~4 characters a token, with margin). Its cosines sit higher than
  // USE's; 0.7 is provisional until `npm run eval:search` runs with Workers AI credentials (docs/search.md).
  [WORKERS_AI_MODEL]: { dimensions: 384, threshold: 0.7, maxInputChars: 1500 },
};

export function modelInfo(model: string): ModelInfo {
  const info = MODELS[model];
  if (!info) throw new Error(`unknown embedding model ${model}`);
  return info;
}
