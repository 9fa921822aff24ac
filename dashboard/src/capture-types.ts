export type { Capture } from "./types";

/** Why a capture failed, in words (`details.reason` of 422 capture_failed). */
export const CAPTURE_REASONS: Record<string, string> = {
  bad_url: "The page address is not a valid http(s) URL.",
  private_address: "The page address points at a private or local network, which the service cannot fetch.",
  unreachable: "The page could not be reached. Check that it is published and loads in a private browser window.",
  http_status: "The page answered with an error instead of the page (for example 404 or 500).",
  not_html: "The address does not serve an HTML page.",
  too_large: "The page is larger than 5 MB.",
  timeout: "The page took longer than 10 seconds to load.",
  too_many_redirects: "The page redirects too many times (more than 5), perhaps in a loop.",
  collection_deleted: "The collection this page showed was deleted.",
};
