/**
 * What a visitor's browser gets when a rendered page cannot be shown (on a customer's hostname or
 * through their proxy): a plain HTML page with the same status, never the API's JSON envelope.
 * The people reading it are the site's visitors, not its owner: it says nothing of plans, tokens
 * or configuration (the owner's dashboard says those), only what a visitor can do. Programs that
 * do not ask for HTML (no `text/html` in Accept) keep the envelope, as documented.
 */
import { errorPage } from "./errors";

const WORDS: Readonly<Record<number, [string, string]>> = {
  404: ["Page not found", "There is no page at this address. Check the address, or go to the site's home page."],
  429: ["Too many requests", "This site is getting more requests from you than it can answer. Wait a minute and try again."],
};
const UNAVAILABLE: [string, string] = ["This page is not available", "The site cannot show this page right now. Please try again later."];
const FAILED: [string, string] = ["Something went wrong", "The page could not be shown. Please try again in a moment."];

/** Whether the client asked for a web page (a browser's navigation does). */
export function wantsHtml(request: Request): boolean {
  return (request.headers.get("accept") ?? "").includes("text/html");
}

/** `response` as a visitor's page when it is an error envelope and the client wants HTML; else unchanged. */
export function forVisitor(request: Request, response: Response): Response {
  if (response.status < 400 || !wantsHtml(request)) return response;
  if (!(response.headers.get("content-type") ?? "").startsWith("application/json")) return response;
  const [title, text] = WORDS[response.status] ?? (response.status >= 500 ? FAILED : UNAVAILABLE);
  const retryAfter = response.headers.get("retry-after");
  return errorPage(response.status, title, text, retryAfter ? { "retry-after": retryAfter } : {});
}
