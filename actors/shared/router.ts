/**
 * How an object's routes are written (the Site and the Workspace alike, in partyserver's style):
 * a router is a function that answers a request, or says null when none of its routes is the
 * request's; the object tries its routers in a list, in order, and the first answer wins.
 */
import type { IRequest, IttyRouterType } from "itty-router";

/** One router: its answer, or null when the request is not one of its routes. */
export type Router<A extends unknown[] = []> = (request: Request, ...args: A) => Promise<Response | null> | Response | null;

/** The first answer of `routers`, asked in order; null when none has the route. */
export async function firstResponse<A extends unknown[]>(
  routers: readonly Router<A>[],
  request: Request,
  ...args: A
): Promise<Response | null> {
  for (const router of routers) {
    const response = await router(request, ...args);
    if (response) return response;
  }
  return null;
}

/**
 * An itty-router as a Router. (The result is a plain function, so it may be a promise's value:
 * itty-router's own Proxy would pass for a thenable.)
 */
export function ittyRouter<A extends unknown[]>(router: IttyRouterType<IRequest, A>): Router<A> {
  return async (request, ...args) => ((await router.fetch(request, ...args)) as Response | undefined) ?? null;
}
