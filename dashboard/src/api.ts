/**
 * The dashboard's one way to the service: `client`, a typed client of the documented API.
 *
 * Its types are generated from openapi.json (`npm run openapi` writes generated/api.d.ts with
 * openapi-typescript; `npm run check` fails when that file is stale), and openapi-fetch turns
 * them into calls: a path the API does not document, a wrong parameter or body, or reading a
 * field an answer does not have is a compile error, so the dashboard cannot drift from the
 * contract. Both are small, well-kept npm libraries made for each other (openapi-fetch adds
 * about 6 KB and no dependencies), which is why we use them instead of our own fetch wrapper.
 *
 *   const { site } = await call(client.GET("/sites/{siteId}", { params: { path: inSite() } }));
 *
 * `call` turns the client's `{ data, error }` into the data, or throws an ApiFailure holding the
 * error envelope; forms show it through useForm (use-form.ts), other screens through ErrorNotice.
 */
import { signal } from "@preact/signals";
import createClient from "openapi-fetch";
import type { paths } from "./generated/api";

export interface ErrorEnvelope {
  code: string;
  message: string;
  details?: { issues?: { path: string; message: string }[]; retryAfterSeconds?: number; [k: string]: unknown };
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly error: ErrorEnvelope,
  ) {
    super(error.message);
  }

  /** Field errors by path (`data.title`, `slug`, `fields.0.key`), for showing next to their fields. */
  get fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const i of this.error.details?.issues ?? []) out[i.path] ??= i.message;
    return out;
  }
}

/** Set when any call learns the session is gone; the app then shows the sign-in screen. */
export const sessionLost = signal(false);

export const client = createClient<paths>({
  // Same origin as the dashboard itself, with the HttpOnly session cookie.
  baseUrl: typeof location === "object" ? location.origin : "",
  credentials: "same-origin",
});

const SIGN_IN_PATHS = new Set(["/sessions", "/sessions/passkey"]);

client.use({
  onResponse({ request, response }) {
    // A 401 anywhere but at sign-in (password, key or passkey) means the session ended (expired, signed out elsewhere, key replaced).
    if (response.status === 401 && !SIGN_IN_PATHS.has(new URL(request.url).pathname)) sessionLost.value = true;
    return undefined;
  },
});

interface Answer {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * The header that makes a change of an item conditional on the version this screen shows: the
 * service refuses it (412) if the item changed since (another tab or person, its schedule).
 */
export const asOf = (item: { revision: number }): { "if-match": string } => ({ "if-match": `"r${item.revision}"` });

/** The answer's body, or an ApiFailure with the service's error envelope (status 0: not reached). */
export async function call<A extends Answer>(request: Promise<A>): Promise<Exclude<A["data"], undefined>> {
  let answer: A;
  try {
    answer = await request;
  } catch {
    throw new ApiFailure(0, { code: "network", message: "The service could not be reached. Check your connection and try again." });
  }
  if (!answer.response.ok) {
    const status = answer.response.status;
    const error = (answer.error as { error?: ErrorEnvelope } | undefined)?.error;
    throw new ApiFailure(
      status,
      error?.code && error.message
        ? error
        : {
            code: "unknown",
            message:
              status >= 500
                ? `The service failed (${status}). Try again in a minute; reload the page to see what was saved.`
                : `The service answered ${status}. Reload the page and try again.`,
          },
    );
  }
  return answer.data as Exclude<A["data"], undefined>;
}
