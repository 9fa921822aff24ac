/**
 * Internal header names between the front Worker (src/) and the site object (actors/site.ts).
 * The front Worker drops every client header under this prefix before forwarding
 * (src/edge/forward.ts), so only it can set them.
 */
export const INTERNAL_HEADER_PREFIX = "x-oc-";

/** Set on a request the operator token authorised; the site object then skips its own key check. */
export const OPERATOR_HEADER = "x-oc-operator";
/** The site's cache version, on every answer of the site object; the front Worker reads and drops it. */
export const CACHE_VERSION_HEADER = "x-oc-cache-version";
/** Set by the front Worker on a rendered-page request; carries the site token it was routed by. */
export const RENDER_HEADER = "x-oc-render-token";
/** Set by the front Worker on a request that arrived on a custom hostname; carries the hostname. */
export const HOST_HEADER = "x-oc-custom-host";
/** Set by the front Worker on a dashboard request signed in with a session cookie; carries the session id. */
export const SESSION_HEADER = "x-oc-session";
/**
 * On a write's answer: what the site's recent cache versions changed (`encodeChanges`,
 * src/contract/cache-version.ts); the front Worker reads and drops it.
 */
export const CHANGES_HEADER = "x-oc-cache-changes";
/**
 * Sent by the front Worker on a read it will keep ("1"); the site object answers with the id of
 * the one item the answer depends on, when it depends on nothing else (a single item of a
 * collection without references, or that item's rendered page with no list on it). The front
 * Worker then carries its copy across versions that changed other items only, with no read.
 */
export const DEPENDS_HEADER = "x-oc-depends-on";
/**
 * The DEPENDS_HEADER value of a list answer (a list of a collection without references, with no
 * `search`): `list:` and the keys its order and membership depend on (its sort keys, or
 * `publishedAt`, and its filter keys). The front Worker carries it across versions that were edits
 * of items it does not show, changing none of those keys (src/contract/cache-version.ts).
 */
export const DEPENDS_ON_LIST = "list:";
/** Set by the front Worker with the ETag of its copy of an older version of the same URL; 304 when still the same bytes. */
export const REVALIDATE_HEADER = "x-oc-if-body";

/** The public header a customer's server or proxy sends its site token in, for a rendered page. */
export const SERVICE_TOKEN_HEADER = "x-service-token";

/** One year, subdomains included: the service's own hosts are https only in production. */
export const HSTS_VALUE = "max-age=31536000; includeSubDomains";

/**
 * Set by the front Worker on every dashboard request it authorised: who is calling, as JSON
 * (`PrincipalHeader` in ./principal.ts). The site and workspace objects trust it because only
 * the front Worker can set an `x-oc-` header.
 */
export const PRINCIPAL_HEADER = "x-oc-principal";

/**
 * On a site object's 429: the policy that refused (src/contract/limits.ts SITE_LIMITS). The front
 * Worker then refuses the same client and site from memory until the answer's Retry-After, and
 * drops the header.
 */
export const REFUSED_HEADER = "x-oc-refused";

/**
 * Set by the front Worker on a public read it forwards to a site object: the key the client's
 * reads are counted under (src/limits/client.ts), the visitor's own through a signed proxy.
 */
export const CLIENT_HEADER = "x-oc-client";

/** Sent by the customer's reverse-proxy Worker: the site's proxy key (src/limits/proxy-key.ts). */
export const PROXY_KEY_HEADER = "x-proxy-key";
/** Sent by the customer's reverse-proxy Worker beside the proxy key: the visitor's address. */
export const VISITOR_IP_HEADER = "x-visitor-ip";
