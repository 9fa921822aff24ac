import { LOCAL_MODEL, WORKERS_AI_MODEL } from "./models";

/** Turns texts into vectors, one per text, in order. */
export interface Embedder {
  readonly model: string;
  embed(texts: readonly string[]): Promise<number[][]>;
}

/** The model could not be reached or answered nonsense; the reason is for logs only. */
export class EmbeddingError extends Error {}

/**
 * Production: Workers AI through the `AI` binding. bge-small-en-v1.5 takes a
 * batch of texts and answers `{shape, data}` with one 384-d vector per text.
 */
export class WorkersAiEmbedder implements Embedder {
  readonly model = WORKERS_AI_MODEL;
  #ai: Ai;

  constructor(ai: Ai) {
    this.#ai = ai;
  }

  async embed(texts: readonly string[]): Promise<number[][]> {
    let out: unknown;
    try {
      out = await this.#ai.run(WORKERS_AI_MODEL, { text: [...texts] });
    } catch (err) {
      throw new EmbeddingError(`Workers AI ${WORKERS_AI_MODEL}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return checkVectors(out && typeof out === "object" && "data" in out ? out.data : undefined, texts.length, this.model);
  }
}

/** Texts per request to the local embedder: from 8 a call on it costs the same per text (embedder/worker.ts). */
const LOCAL_REQUEST_TEXTS = 8;

/**
 * Local and offline: the embedder Worker in embedder/ (Universal Sentence
 * Encoder lite), reached through the `EMBEDDER` service binding.
 */
export class LocalEmbedder implements Embedder {
  readonly model = LOCAL_MODEL;
  #service: Fetcher;

  constructor(service: Fetcher) {
    this.#service = service;
  }

  async embed(texts: readonly string[]): Promise<number[][]> {
    // The model is compute-bound on one thread per workerd process. Sending a batch as concurrent
    // requests lets a host that runs several embedder processes (scripts/workerd-host.mjs, one per
    // core) spread it; a single process takes them in turn at the same total cost.
    const parts: (readonly string[])[] = [];
    for (let i = 0; i < texts.length; i += LOCAL_REQUEST_TEXTS) parts.push(texts.slice(i, i + LOCAL_REQUEST_TEXTS));
    return (await Promise.all(parts.map((part) => this.#embedPart(part)))).flat();
  }

  async #embedPart(texts: readonly string[]): Promise<number[][]> {
    let body: { model?: unknown; vectors?: unknown };
    try {
      const res = await this.#service.fetch("http://embedder/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ texts }),
      });
      if (!res.ok) throw new Error(`status ${res.status}: ${(await res.text()).slice(0, 200)}`);
      body = await res.json();
    } catch (err) {
      throw new EmbeddingError(`local embedder: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (body.model !== this.model) throw new EmbeddingError(`local embedder answered for model ${String(body.model)}`);
    return checkVectors(body.vectors, texts.length, this.model);
  }
}

/** The embedder the configuration names (`SEARCH_EMBEDDER`). */
export function embedderFor(env: Env): Embedder {
  if (env.SEARCH_EMBEDDER === "workers-ai") {
    if (!env.AI) throw new Error("SEARCH_EMBEDDER is workers-ai but there is no AI binding");
    return new WorkersAiEmbedder(env.AI);
  }
  if (!env.EMBEDDER) throw new Error("SEARCH_EMBEDDER is local but there is no EMBEDDER service binding");
  return new LocalEmbedder(env.EMBEDDER);
}

function checkVectors(data: unknown, count: number, model: string): number[][] {
  if (!Array.isArray(data) || data.length !== count) throw new EmbeddingError(`${model}: expected ${count} vectors`);
  for (const v of data) {
    if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === "number" && Number.isFinite(x))) {
      throw new EmbeddingError(`${model}: malformed vector`);
    }
  }
  return data as number[][];
}
