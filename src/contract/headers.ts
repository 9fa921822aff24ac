/**
 * Header names and values of the documented contract that the security work relies on.
 * (Kept here until the shared contract module lands; then they move into it.)
 */

/** The customer's reverse proxy names the site with this header (see proxy/). */
export const SERVICE_TOKEN_HEADER = "x-service-token";

/** One year, subdomains included: the service's own hosts are https only in production. */
export const HSTS_VALUE = "max-age=31536000; includeSubDomains";
