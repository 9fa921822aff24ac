/** Where a custom hostname answers the service's own check that it reaches us (HTTP validation). */
export const VALIDATION_PATH = "/.well-known/oc-hostname/";

/** The hostname object's answer to the front Worker's Host → site lookup (actors/hostname.ts). */
export interface HostnameRoute {
  siteId: string;
  active: boolean;
}
