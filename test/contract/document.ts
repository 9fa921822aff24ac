/**
 * Holds real answers to the OpenAPI document (openapi.json, as served): the status must
 * be documented for the operation, every header the document names must be there with
 * a valid value, and the body must match the documented media type and schema. Runs
 * inside workerd with @cfworker/json-schema (no code generation, so no eval).
 */
import { Validator } from "@cfworker/json-schema";
import DOCUMENT from "../../openapi.json";

type Json = Record<string, unknown>;
const doc = DOCUMENT as unknown as Json & { paths: Record<string, Record<string, Json>>; components: Json };
const components = doc.components as { headers: Record<string, Json>; schemas: Record<string, Json> };

export interface OperationInfo {
  id: string;
  method: string;
  path: string;
  spec: Json & { responses: Record<string, Json> };
}

export const OPERATIONS: OperationInfo[] = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, spec]) => ({ id: spec.operationId as string, method, path, spec: spec as OperationInfo["spec"] })),
);

export function operationById(id: string): OperationInfo {
  const op = OPERATIONS.find((o) => o.id === id);
  if (!op) throw new Error(`no operation ${id} in openapi.json`);
  return op;
}

/** The documented answers: `id status` for successes, `id status code` for each error code. */
export function documentedAnswers(): string[] {
  const out: string[] = [];
  for (const op of OPERATIONS) {
    for (const [status, r] of Object.entries(op.spec.responses)) {
      const content = (r.content ?? {}) as Record<string, Json>;
      const codes = errorCodesOf(content["application/json"]);
      const other = Object.keys(content).filter((m) => m !== "application/json");
      if (!codes.length || other.length || Number(status) < 400) out.push(`${op.id} ${status}`);
      for (const code of codes) out.push(`${op.id} ${status} ${code}`);
    }
  }
  return out;
}

function errorCodesOf(media: Json | undefined): string[] {
  const ref = (media?.schema as Json | undefined)?.$ref as string | undefined;
  const name = ref?.split("/").pop();
  if (!name?.startsWith("Error_")) return [];
  const schema = components.schemas[name] as { properties: { error: { properties: { code: { enum: string[] } } } } };
  return schema.properties.error.properties.code.enum;
}

const validators = new Map<string, Validator>();
function validate(schema: Json, value: unknown): string[] {
  const key = JSON.stringify(schema);
  let v = validators.get(key);
  if (!v) {
    v = new Validator({ ...schema, components } as never, "2020-12", false);
    validators.set(key, v);
  }
  const r = v.validate(value);
  return r.valid ? [] : r.errors.map((e) => `${e.instanceLocation} ${e.error}`);
}

function pathMatches(template: string, path: string): boolean {
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part === "{path}" ? ".+" : part.startsWith("{") ? "[^/]+" : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${pattern}$`).test(path);
}

export interface Checked {
  /** `id status` or `id status code`: what `documentedAnswers` lists. */
  answer: string;
  problems: string[];
  body: unknown;
}

/** Checks one answer of `operationId` to a request for `url` against the document. */
export async function checkAnswer(operationId: string, method: string, url: string, res: Response): Promise<Checked> {
  const op = operationById(operationId);
  const problems: string[] = [];
  const path = new URL(url, "https://x.invalid").pathname;
  if (op.method !== method.toLowerCase() || !pathMatches(op.path, path)) problems.push(`${method} ${path} is not ${op.method} ${op.path}`);
  const text = await res.text();
  const spec = op.spec.responses[String(res.status)];
  if (!spec)
    return {
      answer: `${operationId} ${res.status}`,
      problems: [...problems, `undocumented status ${res.status}: ${text.slice(0, 300)}`],
      body: text,
    };

  for (const [name, h] of Object.entries((spec.headers ?? {}) as Record<string, Json>)) {
    const header = (h.$ref ? components.headers[(h.$ref as string).split("/").pop()!] : h) as Json;
    const value = res.headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`header ${name} missing`);
      continue;
    }
    problems.push(...validate(header.schema as Json, value).map((p) => `header ${name}: ${p}`));
  }

  const content = (spec.content ?? {}) as Record<string, Json>;
  const type = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
  let body: unknown = text;
  let code: string | undefined;
  if (!Object.keys(content).length) {
    if (text !== "") problems.push(`status ${res.status} is documented without a body, got ${text.slice(0, 100)}`);
  } else if (!content[type]) {
    problems.push(`content-type ${type} is not one of ${Object.keys(content).join(", ")}`);
  } else if (type === "application/json") {
    try {
      body = JSON.parse(text);
    } catch {
      problems.push("the body is not JSON");
    }
    problems.push(...validate(content[type].schema as Json, body).map((p) => `body ${p}`));
    code = res.status >= 400 ? ((body as { error?: { code?: string } }).error?.code ?? undefined) : undefined;
  }
  return { answer: `${operationId} ${res.status}${code ? ` ${code}` : ""}`, problems, body };
}

/** Every example in the document, checked against the schema it illustrates. */
export function exampleProblems(): { examples: number; problems: string[] } {
  let examples = 0;
  const problems: string[] = [];
  for (const op of OPERATIONS) {
    for (const [status, r] of Object.entries(op.spec.responses)) {
      for (const [type, media] of Object.entries((r.content ?? {}) as Record<string, Json>)) {
        if (media.example === undefined) continue;
        examples++;
        problems.push(...validate(media.schema as Json, media.example).map((p) => `${op.id} ${status} ${type}: ${p}`));
      }
    }
  }
  return { examples, problems };
}
