/**
 * A refusal across RPC. A thrown ApiError does not keep its code between a Durable Object and
 * its caller, so an RPC method that can refuse answers the error as data, and the caller throws
 * it again as the ApiError it was. Every such call encodes and decodes with these.
 */
import { ApiError, type ErrorCode } from "./errors";

/** An RPC answer that refuses. */
export type Refusal = { error: { code: ErrorCode; message: string; details?: unknown } };

/** The answer for a caught error: an ApiError as data; anything else is thrown on. */
export function refusal(err: unknown): Refusal {
  if (err instanceof ApiError) return { error: { code: err.code, message: err.message, details: err.details } };
  throw err;
}

/** Whether an RPC answer is a refusal. */
export function isRefusal(answer: unknown): answer is Refusal {
  return typeof answer === "object" && answer !== null && "error" in answer;
}

/** The ApiError a refusal carries. */
export function refusalError(r: Refusal): ApiError {
  return new ApiError(r.error.code, r.error.message, r.error.details);
}

/** The answer, or its refusal thrown as the ApiError it was. */
export function unlessRefused<T>(answer: T | Refusal): T {
  if (isRefusal(answer)) throw refusalError(answer);
  return answer;
}
