import type { Miniflare } from "miniflare";

export function buildWorker(outdir: string, config?: string): string;
export function startWorkerd(options: {
  scriptPath: string;
  adminToken: string;
  persistDir?: string;
  vars?: Record<string, string>;
  embedderProcesses?: number;
  /** Serve the dashboard's static files (default true); benchmarks of the API path leave them out. */
  dashboard?: boolean;
}): Promise<{ mf: Miniflare; base: string; embedderProcesses: number; dispose(): Promise<void> }>;
export function workerdPids(): number[];
export function workerdCpuMs(pids?: number[]): number;
export function startProxy(options: { scriptPath: string; ssrUrl: string; serviceToken: string }): Promise<{ mf: Miniflare; base: string }>;
