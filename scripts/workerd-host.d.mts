import type { Miniflare } from "miniflare";

export function buildWorker(outdir: string): string;
export function startWorkerd(options: {
  scriptPath: string;
  adminToken: string;
  persistDir?: string;
  vars?: Record<string, string>;
}): Promise<{ mf: Miniflare; base: string }>;
export function workerdCpuMs(): number;
