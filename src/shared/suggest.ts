/**
 * The closest candidate by edit distance, when it is close enough to be a likely typo.
 * A candidate whose length differs from the input by more than it could ever be
 * suggested for is never measured, so a hostile 1 MB input costs nothing here.
 */
export function suggest(input: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  const needle = input.toLowerCase();
  for (const c of candidates) {
    if (Math.abs(needle.length - c.length) > threshold(c)) continue;
    const d = distance(needle, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  if (best === null) return null;
  return bestDistance <= threshold(best) ? best : null;
}

function threshold(candidate: string): number {
  return Math.max(2, Math.floor(candidate.length / 2));
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j] as number;
      row[j] = Math.min(cur + 1, (row[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length] as number;
}
