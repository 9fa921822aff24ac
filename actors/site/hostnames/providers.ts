import { VALIDATION_PATH } from "../../../src/contract/hostnames";
/**
 * Who issues the certificate and routes a custom hostname. Two implementations,
 * chosen by configuration (`CUSTOM_HOSTNAMES`):
 *  - `cloudflare`: Cloudflare for SaaS, the custom hostnames API of the service's
 *    zone with DV certificates (secrets `CF_API_TOKEN`, `CF_ZONE_ID`).
 *  - `local`: a real check that the hostname reaches this service: it becomes
 *    active once a request for it carrying its validation token arrives here.
 * Anything else (or missing credentials) means not configured.
 */

export type SslStatus = "pending_validation" | "pending_issuance" | "active";

export interface ProviderState {
  providerId: string;
  sslStatus: SslStatus;
  /** What is still missing, in words a customer can act on. */
  missing: string[];
  /** The provider's own ownership record (Cloudflare for SaaS `ownership_verification`), when it gives one. */
  ownership?: { name: string; value: string };
}

export interface HostnameProvider {
  readonly name: "local" | "cloudflare";
  readonly cnameTarget: string;
  create(hostname: string, validationToken: string): Promise<ProviderState>;
  status(providerId: string, hostname: string, validationToken: string): Promise<ProviderState>;
  remove(providerId: string): Promise<void>;
}

export class LocalProvider implements HostnameProvider {
  readonly name = "local";
  constructor(
    readonly cnameTarget: string,
    /** Whether the validation request has arrived, as recorded by the site. */
    private readonly validated: (hostname: string) => boolean,
    /** The port this service listens on locally, so the validation URL can be pasted as is. */
    private readonly port = "",
  ) {}

  async create(hostname: string, token: string): Promise<ProviderState> {
    return this.status(`local:${hostname}`, hostname, token);
  }

  async status(providerId: string, hostname: string, token: string): Promise<ProviderState> {
    if (this.validated(hostname)) return { providerId, sslStatus: "active", missing: [] };
    return {
      providerId,
      sslStatus: "pending_validation",
      missing: [
        `an HTTP request for http://${hostname}${this.port ? `:${this.port}` : ""}${VALIDATION_PATH}${token} reaching this service (point the hostname at ${this.cnameTarget})`,
      ],
    };
  }

  async remove(): Promise<void> {}
}

/** The documented shape of a custom hostname in the Cloudflare API (the parts used here). */
interface CfCustomHostname {
  id: string;
  hostname: string;
  status?: string;
  ssl?: {
    status?: string;
    validation_records?: { http_url?: string; txt_name?: string; txt_value?: string }[];
    validation_errors?: { message: string }[];
  };
  verification_errors?: string[];
  ownership_verification?: { type?: string; name?: string; value?: string };
}

interface CfEnvelope<T> {
  success: boolean;
  errors: { code: number; message: string }[];
  result: T;
}

export class CloudflareSaasProvider implements HostnameProvider {
  readonly name = "cloudflare";
  constructor(
    private readonly zoneId: string,
    private readonly apiToken: string,
    readonly cnameTarget: string,
    private readonly apiBase = "https://api.cloudflare.com/client/v4",
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  async create(hostname: string): Promise<ProviderState> {
    const result = await this.#call<CfCustomHostname>("POST", "", {
      hostname,
      ssl: { method: "http", type: "dv", settings: { min_tls_version: "1.2" } },
    });
    return this.#state(result);
  }

  async status(providerId: string): Promise<ProviderState> {
    return this.#state(await this.#call<CfCustomHostname>("GET", `/${encodeURIComponent(providerId)}`));
  }

  async remove(providerId: string): Promise<void> {
    await this.#call<{ id: string }>("DELETE", `/${encodeURIComponent(providerId)}`);
  }

  async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.fetcher(`${this.apiBase}/zones/${encodeURIComponent(this.zoneId)}/custom_hostnames${path}`, {
      method,
      headers: { authorization: `Bearer ${this.apiToken}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const envelope = (await res.json().catch(() => null)) as CfEnvelope<T> | null;
    if (!res.ok || !envelope?.success) {
      const reason = envelope?.errors?.map((e) => `${e.code}: ${e.message}`).join("; ") || `HTTP ${res.status}`;
      throw new ProviderError(`Cloudflare custom hostnames API: ${reason}`, res.status, envelope?.errors?.[0]?.code);
    }
    return envelope.result;
  }

  #state(h: CfCustomHostname): ProviderState {
    const ssl = h.ssl?.status ?? "initializing";
    const missing: string[] = [];
    if (h.status !== "active") {
      missing.push(`a CNAME record ${h.hostname} → ${this.cnameTarget} at your DNS provider`);
      for (const e of h.verification_errors ?? []) missing.push(e);
    }
    for (const r of h.ssl?.validation_records ?? []) {
      if (r.http_url) missing.push(`certificate validation at ${r.http_url} (automatic once the CNAME is in place)`);
      else if (r.txt_name) missing.push(`TXT record ${r.txt_name} = ${r.txt_value}`);
    }
    for (const e of h.ssl?.validation_errors ?? []) missing.push(e.message);
    const own = h.ownership_verification;
    const ownership = own?.type === "txt" && own.name && own.value ? { name: own.name, value: own.value } : undefined;
    const sslStatus: SslStatus =
      ssl === "active" && h.status === "active"
        ? "active"
        : ssl === "pending_issuance" || ssl === "pending_deployment"
          ? "pending_issuance"
          : "pending_validation";
    return { providerId: h.id, sslStatus, missing: sslStatus === "active" ? [] : missing, ...(ownership ? { ownership } : {}) };
  }
}

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: number,
  ) {
    super(message);
  }
}

/** The configured provider, or null when custom hostnames are not enabled for this deployment. */
/**
 * The settings CUSTOM_HOSTNAMES="cloudflare" needs that this deployment leaves empty. Besides the
 * API credentials, the service's own hosts and the CNAME target are required: without them a
 * site could register the service's other hosts or the target's zone, and every Host would be
 * taken for the service (so no custom hostname would be served anyway).
 */
export function missingProviderSettings(env: Env): string[] {
  if (env.CUSTOM_HOSTNAMES !== "cloudflare") return [];
  const e = env as { CF_API_TOKEN?: string; CF_ZONE_ID?: string };
  const settings: [string, string | undefined][] = [
    ["CF_API_TOKEN", e.CF_API_TOKEN],
    ["CF_ZONE_ID", e.CF_ZONE_ID],
    ["SERVICE_HOSTNAMES", env.SERVICE_HOSTNAMES],
    ["CUSTOM_HOSTNAME_CNAME_TARGET", env.CUSTOM_HOSTNAME_CNAME_TARGET],
  ];
  return settings.filter(([, value]) => !value?.trim()).map(([name]) => name);
}

export function providerFor(env: Env, validated: (hostname: string) => boolean, port = ""): HostnameProvider | null {
  const target = env.CUSTOM_HOSTNAME_CNAME_TARGET;
  if (env.CUSTOM_HOSTNAMES === "local") return new LocalProvider(target || "localhost", validated, port);
  if (env.CUSTOM_HOSTNAMES === "cloudflare") {
    if (missingProviderSettings(env).length) return null;
    const e = env as { CF_API_TOKEN?: string; CF_ZONE_ID?: string };
    return new CloudflareSaasProvider(e.CF_ZONE_ID!, e.CF_API_TOKEN!, target, env.CF_API_BASE || undefined);
  }
  return null;
}
