export interface DohServer {
  origin: string;
  /** The resolver URL, for DOH_URL. */
  url: string;
  set(name: string, value: string, type?: "TXT" | "A" | "AAAA" | "CNAME"): void;
  close(): Promise<void>;
}
export function startDohServer(options?: { port?: number; host?: string; file?: string }): Promise<DohServer>;
