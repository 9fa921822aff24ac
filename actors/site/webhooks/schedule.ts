/**
 * When a failed delivery is tried again: the Standard Webhooks specification's example schedule
 * (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then further to about three days), each delay spread by
 * ±20 % so that a receiver coming back is not hit by every site's retries at one instant.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Delay after failed attempt n (index n - 1). After the last one, the delivery has failed. */
export const RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];

/** Attempts in all: the first, then one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** The delay before the next attempt after `attempts` failed ones, or null when none is left. */
export function retryDelay(attempts: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.8 + 0.4 * random()));
}
