/**
 * The delay before a retry, as every retrying job of the objects computes it: the first retry
 * waits `firstMs`; each later one waits `factor` times the one before (2 unless said; 1 keeps it
 * constant) or, with `linear`, `firstMs` more than the one before; never more than `maxMs`.
 * Shared so each caller states only its numbers and all of them read the same way.
 */
export interface BackoffRule {
  firstMs: number;
  factor?: number;
  linear?: boolean;
  maxMs?: number;
}

/** The delay (ms) before retry `attempt`, 1-based: attempt 1 waits `firstMs`. */
export function backoff(rule: BackoffRule): (attempt: number) => number {
  const { firstMs, factor = 2, linear = false, maxMs = Infinity } = rule;
  return (attempt) => Math.min(maxMs, linear ? firstMs * attempt : firstMs * factor ** (attempt - 1));
}
