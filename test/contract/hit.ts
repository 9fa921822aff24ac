/**
 * What every part of the contract test shares: `hit` and its kin call an operation and hold the
 * answer to openapi.json, recording it in `seen`; the fixture sites and the constants they call with.
 * One module for the whole contract test (test/contract.test.ts), so `seen` spans every part.
 */
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { type CallOptions, type TestSite, OPERATOR, addItem, call, newBlog } from "../helpers";
import { checkAnswer } from "./document";

export const seen = new Set<string>();

/** Calls `operationId` and holds the answer to the document; returns it for the test's own checks. */
export async function hit(operationId: string, method: string, path: string, opts: CallOptions = {}) {
  const res = await call(method, path, opts);
  const headers = res.headers;
  const { answer, problems, body } = await checkAnswer(operationId, method, path, res);
  expect(problems, `${method} ${path} → ${answer}`).toEqual([]);
  seen.add(answer);
  return { status: res.status, body: body as Record<string, unknown>, headers };
}

/** `hit` on another of the service's hosts (an IP address, where passkeys cannot work). */
export async function hitOn(base: string, operationId: string, method: string, path: string, headers: Record<string, string>) {
  const res = await exports.default.fetch(new Request(`${base}${path}`, { method, headers }));
  const { answer, problems } = await checkAnswer(operationId, method, path, res);
  expect(problems, `${method} ${base}${path} → ${answer}`).toEqual([]);
  seen.add(answer);
  return res.status;
}

/** As `hit`, for a request `call` cannot make (a file's bytes, a form, a stalled body). */
export async function hitRequest(operationId: string, request: Request) {
  const res = await exports.default.fetch(request);
  const headers = res.headers;
  const { answer, problems, body } = await checkAnswer(operationId, request.method, request.url, res);
  expect(problems, `${request.method} ${request.url} → ${answer}`).toEqual([]);
  seen.add(answer);
  return { status: res.status, body: body as Record<string, unknown>, headers };
}

export const UNKNOWN_SITE = "aaaaaaaaaaaaaaaa";
export const UNKNOWN_TOKEN = `pk_${UNKNOWN_SITE}_aaaaaaaaaaaaaaaaaaaaaaaa`;
export const big = () => JSON.stringify({ name: "x".repeat(1024 * 1024 + 10) });

export interface Fixture {
  blog: TestSite;
  starter: TestSite;
  seo: TestSite;
  itemId: string;
  workspaceId: string;
}
let fx: Fixture;

export async function fixture(): Promise<Fixture> {
  if (fx) return fx;
  const blog = await newBlog("pro");
  const starter = await newBlog("starter");
  const seo = await newBlog("seo_engine");
  const item = await addItem(blog, "posts", { slug: "hello", publish: true, data: { title: "Puppy training for beginners" } });
  await addItem(blog, "posts", { slug: "second", publish: true, data: { title: "Teaching a young dog to sit" } });
  await addItem(starter, "posts", { slug: "hello", publish: true, data: { title: "Hello" } });
  const ws = await call("POST", "/workspaces", { auth: OPERATOR, body: { name: "Contract", plan: "pro" } });
  const { workspace } = (await ws.json()) as { workspace: { id: string } };
  fx = { blog, starter, seo, itemId: item.id, workspaceId: workspace.id };
  return fx;
}

/** A path of `template` with real values (a `/workspaces/{id}` id is the workspace's). */
export function fill(template: string, site: TestSite, f: Fixture, siteId = site.id): string {
  const values: Record<string, string> = {
    token: site.token,
    siteId,
    slug: "posts",
    itemSlug: "hello",
    id: template.startsWith("/workspaces") ? f.workspaceId : f.itemId,
    secret: "0".repeat(48),
    asset: "swagger-ui.css",
    path: "blog/",
  };
  return template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? k);
}
