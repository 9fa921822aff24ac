/** Where a connected hostname serves the pages: https in production; `*.localhost` is this machine, on this port. */
export function hostnameOrigin(hostname: string): string {
  if (hostname === "localhost" || hostname.endsWith(".localhost"))
    return `${location.protocol}//${hostname}${location.port ? `:${location.port}` : ""}`;
  return `https://${hostname}`;
}
