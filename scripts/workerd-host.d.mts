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
  /** Durable Object binding name → class (default: the service's, SERVICE_DURABLE_OBJECTS). */
  durableObjects?: Record<string, string>;
  /** workerd's V8 inspector on this port. */
  inspectorPort?: number;
}): Promise<{ mf: Miniflare; base: string; embedderProcesses: number; dispose(): Promise<void> }>;
export const SERVICE_DURABLE_OBJECTS: Record<string, string>;
export function workerdPids(): number[];
export function workerdPidsByAge(): number[];
export function servicePid(): number | undefined;
export function residentMb(pid: number, field?: "VmRSS" | "VmHWM" | "RssAnon" | "RssFile"): number;
export function workerdCpuMs(pids?: number[]): number;
export function processCpuNs(pid: number): number;
export function startProxy(options: { scriptPath: string; ssrUrl: string; serviceToken: string }): Promise<{ mf: Miniflare; base: string }>;
