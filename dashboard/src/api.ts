/** The dashboard's one way to the service: the documented dashboard API, with the session cookie. */
import { signal } from "@preact/signals";

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

export async function api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiFailure(0, { code: "network", message: "The service could not be reached. Check your connection and try again." });
  }
  const text = await res.text();
  const parsed: unknown = text ? safeParse(text) : null;
  if (!res.ok) {
    const error = (parsed as { error?: ErrorEnvelope } | null)?.error ?? {
      code: "unknown",
      message: `The service answered ${res.status}.`,
    };
    if (res.status === 401 && path !== "/sessions") sessionLost.value = true;
    throw new ApiFailure(res.status, error);
  }
  return parsed as T;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export const get = <T>(path: string) => api<T>("GET", path);
