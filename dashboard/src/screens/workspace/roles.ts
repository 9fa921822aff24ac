/** The workspace's roles in words, and what its sections share. */
import { ApiFailure } from "../../api";
import type { Options } from "../../form-fields";
import type { SiteName } from "../../workspace-sites";

export type Role = "administrator" | "editor" | "author" | "contributor" | "viewer";
export const ROLES: [Role, string][] = [
  ["administrator", "Administrator"],
  ["editor", "Editor"],
  ["author", "Author"],
  ["contributor", "Contributor"],
  ["viewer", "Viewer"],
];
export const ROLE_NAME: Record<string, string> = { owner: "Owner", ...Object.fromEntries(ROLES) };

/** "Every site" and each site of the workspace, for a site filter or limit. */
export const siteOptions = (sites: readonly SiteName[]): Options => [["", "Every site"], ...sites.map((s) => [s.id, s.name] as const)];

export const refused = (e: unknown) => e instanceof ApiFailure && e.status === 403;
