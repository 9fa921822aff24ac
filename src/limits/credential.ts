import type { Principal } from "../contract/principal";

/**
 * The credential a write is counted against: the person (whichever session or device), the API
 * key, the site admin key or the operator. Limits follow the customer, not the connection.
 */
export function credentialKey(principal: Principal): string {
  switch (principal.kind) {
    case "account":
      return `account:${principal.accountId}`;
    case "apiKey":
      return `key:${principal.keyId}`;
    case "siteKey":
      return `siteKey:${principal.siteId}`;
    case "operator":
      return "operator";
  }
}
