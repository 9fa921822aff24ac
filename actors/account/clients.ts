import { sha256Hex } from "../../src/ids";
import type { ClientMeta } from "../../src/identity/account-types";

/** The browser family of a User-Agent, coarse on purpose: a version bump is not a new client. */
export function browserFamily(userAgent: string | null): string {
  const ua = userAgent ?? "";
  for (const [name, re] of [
    ["Edge", /Edg\//],
    ["Opera", /OPR\//],
    ["Firefox", /Firefox\//],
    ["Chrome", /Chrome\/|Chromium\//],
    ["Safari", /Safari\//],
    ["curl", /^curl\//],
  ] as const) {
    if (re.test(ua)) return name;
  }
  return "other";
}

/** What "a client seen before" means for "new sign-in" notices: browser family and country. */
export const clientHash = (client: ClientMeta): Promise<string> => sha256Hex(`${browserFamily(client.userAgent)}|${client.country ?? "?"}`);
