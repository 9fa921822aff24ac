/**
 * The request bodies the front Worker's body guard (body-guard.ts) watches, by the request the
 * routes are given: a route that wants the whole body (readBodyBytes) has the guard read it,
 * with the same limits, instead of pulling it through the guard's JavaScript stream. Its own
 * module so that the readers (read-capped.ts) and the guard import it without a circle.
 */
export interface GuardedBody {
  /** The whole body under the guard's size and time limits; throws (and the guard records) the refusal. */
  readAll(): Promise<Uint8Array>;
}

const guarded = new WeakMap<Request, GuardedBody>();

export function watchBody(request: Request, guard: GuardedBody): void {
  guarded.set(request, guard);
}

/** The guard of `request`'s body, if the front Worker's guard watches it. */
export function guardOf(request: Request): GuardedBody | undefined {
  return guarded.get(request);
}
