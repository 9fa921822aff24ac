/**
 * A share link opened: `POST /p/open` with the token in the form (links of `/p/#<token>`), or
 * `GET|POST /p/:token[?format=json]` for links made with the token in the path (asked.ts). The
 * front Worker routes it here only from the service's own hosts and only for a browser's
 * navigation (src/preview/routes.ts). The
 * link shows the item's current draft (a published item's pending changes) each time, rendered in
 * the captured template when the site has the SEO Engine and the item is of the captured
 * collection, otherwise as a plain readable page with its JSON. Every failure is the same 404.
 */
import { siteIdOfPreviewToken } from "../../../src/contract/ids";
import { entitlements } from "../../../src/contract/plans";
import { itemTitleOf, titleFieldOf } from "../../../src/contract/item-title";
import { PREVIEW_LINK_LIMITS } from "../../../src/contract/history-limits";
import { previewNotFound } from "../../../src/http/errors";
import { plainPage, previewHeaders } from "../../../src/http/preview-page";
import { sha256Hex } from "../../../src/ids";
import { escapeAttr, escapeHtml } from "../../../src/shared/escape";
import { log } from "../../../src/log";
import type { SiteContext } from "../context";
import type { Collection } from "../storage/rows";
import { rowsByIds } from "../storage/items-table";
import { findPending } from "../storage/pending-table";
import { readItemForPreview } from "../reads/published-list";
import type { PublicItem } from "../../../src/contract/responses";
import { renderedPreview } from "../ssr/preview";
import { countOpen, linkByTokenHash, type PreviewLinkRow, stateOf } from "./links-table";
import { type Asked, askedOf, formAgain, wantsJson } from "./asked";

/** The captured template runs no script of ours, is never framed, loads the customer's assets. */
const TEMPLATE_CSP = "sandbox; frame-ancestors 'none'";

export async function openPreview(s: SiteContext, request: Request): Promise<Response> {
  const asked = await askedOf(request);
  const { url, token } = asked;
  // Always hash and look up once, whatever the token looks like: a wrong token costs what a right one does.
  const hash = await sha256Hex(token);
  const now = Date.now();
  const link = siteIdOfPreviewToken(token) === s.site()!.id ? linkByTokenHash(s.sql, hash) : undefined;
  if (!link || stateOf(link, now) !== "live") return previewNotFound();
  const item = rowsByIds(s.sql, [link.item_id])[0];
  const c = item && s.collections().find((x) => x.id === item.collection_id);
  if (!item || !c) return previewNotFound();

  // Set with the answer when the form that asked carried the right password.
  let unlocked: string | null = null;
  if (link.password_hash !== null) {
    const unlock = await unlockValue(link);
    if (!asked.form) {
      if (request.method === "POST") return checkPassword(link, request, asked, unlock);
      if (cookieOf(request, cookieName(link)) !== unlock) return passwordForm(200, asked);
    } else if (cookieOf(request, cookieName(link)) !== unlock) {
      const password = asked.form.get("password");
      if (password === null) return passwordForm(200, asked);
      if (!(await passwordRight(link, password))) return passwordForm(401, asked, WRONG_PASSWORD);
      // No redirect: the only address without the token is /p/open itself, so the preview is this answer.
      unlocked = unlockCookie(link, unlock, url);
    }
  } else if (request.method === "POST" && !asked.form) return redirectToSelf(url);

  // Counted (and limited) in one statement: the last allowed open goes to one request only.
  const counted = countOpen(s.sql, link.id, now);
  if (!counted) return previewNotFound();
  const json = wantsJson(asked);
  log("preview_opened", { siteId: s.site()!.id, linkId: link.id, format: json ? "json" : "page" });
  const shown = readItemForPreview(s, c.id, item.id);
  if (!shown) return previewNotFound();
  const withUnlock = (headers: Headers): Headers => {
    if (unlocked) headers.append("set-cookie", unlocked);
    return headers;
  };
  if (json)
    return new Response(JSON.stringify({ item: shown }), {
      headers: withUnlock(previewHeaders(undefined, "application/json; charset=utf-8")),
    });

  const capture = s.capture();
  if (capture && capture.collectionId === c.id && entitlements(s.site()!.plan).features.serverRendering) {
    const rendered = renderedPreview(s, capture, { kind: "item", slug: "", previewId: item.id });
    return new Response(rendered.body, { status: rendered.status, headers: withUnlock(previewHeaders(TEMPLATE_CSP)) });
  }
  // What the reader is looking at, in words: a draft, a published item's pending changes, or the published item.
  const note =
    item.status !== "published"
      ? "Preview of a draft: not published."
      : findPending(s.sql, item.seq)
        ? "Preview of unpublished changes to a published item: visitors still see the published version."
        : "Preview of a published item: this is the version visitors see.";
  return new Response(plainItemPage(c, s.collections(), shown, asked, counted.max_opens !== null, note), {
    headers: withUnlock(previewHeaders()),
  });
}

/**
 * Whether `token` is a live link of this site with a password: only then does the front Worker
 * count a password attempt (src/preview/routes.ts). A made-up token costs no throttle object,
 * whose storage would otherwise outlive the request by a day: a flood of made-up tokens
 * would grow storage for nothing.
 */
export async function linkLocked(s: SiteContext, token: string): Promise<boolean> {
  if (siteIdOfPreviewToken(token) !== s.site()!.id) return false;
  const link = linkByTokenHash(s.sql, await sha256Hex(token));
  return link !== undefined && stateOf(link, Date.now()) === "live" && link.password_hash !== null;
}

const cookieName = (link: PreviewLinkRow) => `oc_pv_${link.id}`;

/**
 * What the browser keeps after the right password: derived from the stored hash (secret, salted),
 * so it needs no key of its own, and nobody without the database can make one.
 */
function unlockValue(link: PreviewLinkRow): Promise<string> {
  return sha256Hex(`share-link-unlock|${link.id}|${link.password_hash}`);
}

function cookieOf(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

const WRONG_PASSWORD = "That password is not right. Try again.";

async function passwordRight(link: PreviewLinkRow, password: string): Promise<boolean> {
  if (password.length === 0 || password.length > PREVIEW_LINK_LIMITS.passwordMax) return false;
  const kdf = await import("../../../src/identity/kdf");
  return (await kdf.verifyPassword(link.password_hash!, password)).ok;
}

/** What the browser keeps after the right password (both forms of link read it under /p/). */
function unlockCookie(link: PreviewLinkRow, unlock: string, url: URL): string {
  const secure = url.protocol === "https:" ? "; Secure" : "";
  return `${cookieName(link)}=${unlock}; Path=/p/; HttpOnly; SameSite=Lax; Max-Age=${PREVIEW_LINK_LIMITS.unlockSeconds}${secure}`;
}

/** The password of a link with its token in the path: posted to that path, then back to it with GET. */
async function checkPassword(link: PreviewLinkRow, request: Request, asked: Asked, unlock: string): Promise<Response> {
  const type = request.headers.get("content-type") ?? "";
  const form = type.startsWith("application/x-www-form-urlencoded")
    ? new URLSearchParams(new TextDecoder().decode(await request.arrayBuffer()))
    : new URLSearchParams();
  if (!(await passwordRight(link, form.get("password") ?? ""))) return passwordForm(401, asked, WRONG_PASSWORD);
  const res = redirectToSelf(asked.url);
  res.headers.append("set-cookie", unlockCookie(link, unlock, asked.url));
  return res;
}

/** After the form: the same address with GET (a reload does not post the password again). */
function redirectToSelf(url: URL): Response {
  const headers = previewHeaders();
  headers.set("location", `${url.pathname}${url.search}`);
  return new Response(null, { status: 303, headers });
}

function passwordForm(status: number, asked: Asked, problem?: string): Response {
  const body =
    `<h1>This preview needs a password</h1>` +
    (problem
      ? `<p class="note" role="alert">${escapeHtml(problem)}</p>`
      : `<p>Ask the person who sent you the link for its password.</p>`) +
    formAgain(asked, asked.form && wantsJson(asked) ? { format: "json" } : {}) +
    `<label for="password">Password</label>` +
    `<input id="password" name="password" type="password" required autocomplete="off" autofocus maxlength="${PREVIEW_LINK_LIMITS.passwordMax}">` +
    `<div><button type="submit">Open the preview</button></div></form>`;
  return new Response(plainPage("Password needed", body), { status, headers: previewHeaders() });
}

/** A stored date as a reader says it: "14 March 2026", with ", 09:30 UTC" when it has a time. */
function dateText(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const day = d.toLocaleDateString("en-GB", { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" });
  return iso.includes("T00:00:00") ? day : `${day}, ${d.toISOString().slice(11, 16)} UTC`;
}

/** A referenced item (resolved one level, as the content API gives it) as a reader names it: its title, else its slug. */
type RefName = (ref: { slug?: string; collection?: string; data?: Record<string, unknown> }) => string;

/** One field's value as HTML, for the plain page. Rich text is stored cleaned (an allowlist on write). */
function valueHtml(field: Collection["fields"][number], v: unknown, refName: RefName): string {
  const type = field.type;
  // An unset switch reads "no" in the editor too.
  if (type === "boolean") return v === true ? "Yes" : "No";
  if (v === null || v === undefined || v === "") return `<em>(empty)</em>`;
  if (type === "date" && typeof v === "string") return escapeHtml(dateText(v));
  if (type === "option" && typeof v === "string") return escapeHtml(field.options?.find((o) => o.value === v)?.label ?? v);
  if (type === "richText" && typeof v === "string") return v;
  if ((type === "image" || type === "video") && typeof v === "object") {
    const m = v as { url?: string; alt?: string };
    if (!m.url) return `<em>(none)</em>`;
    return type === "image"
      ? `<img src="${escapeAttr(m.url)}" alt="${escapeAttr(m.alt ?? "")}">`
      : `<a href="${escapeAttr(m.url)}">${escapeHtml(m.url)}</a>`;
  }
  if (type === "gallery" && Array.isArray(v)) {
    const imgs = v.filter((m): m is { url: string; alt?: string } => typeof (m as { url?: unknown } | null)?.url === "string");
    return imgs.length ? imgs.map((m) => `<img src="${escapeAttr(m.url)}" alt="${escapeAttr(m.alt ?? "")}">`).join(" ") : `<em>(none)</em>`;
  }
  if (type === "reference" && typeof v === "object") return escapeHtml(refName(v as Parameters<RefName>[0]));
  if (type === "references" && Array.isArray(v)) return escapeHtml(v.map((r) => refName(r as Parameters<RefName>[0])).join(", "));
  if (type === "link" && typeof v === "string" && /^https?:\/\//i.test(v)) return `<a href="${escapeAttr(v)}">${escapeHtml(v)}</a>`;
  return escapeHtml(typeof v === "string" ? v : JSON.stringify(v));
}

/**
 * The plain readable page: the title, each field by its label in schema order, and the item's
 * JSON. `limited`: the link allows a number of opens, and following a JSON link would use one
 * more (it is a browser's navigation too), so the JSON is only shown inline.
 */
function plainItemPage(c: Collection, all: readonly Collection[], item: PublicItem, asked: Asked, limited: boolean, note: string): string {
  const titleKey = titleFieldOf(c.fields)?.key;
  const bySlug = new Map(all.map((x) => [x.slug, x]));
  const refName: RefName = (ref) => {
    const target = ref.collection === undefined ? undefined : bySlug.get(ref.collection);
    return (target && ref.data ? itemTitleOf(target.fields, ref.data) : null) ?? ref.slug ?? "";
  };
  const rawTitle = titleKey ? item.data[titleKey] : undefined;
  const title = typeof rawTitle === "string" && rawTitle ? rawTitle : item.slug;
  const fields = c.fields
    .filter((f) => f.key !== titleKey)
    .map((f) => `<dt>${escapeHtml(f.name ?? f.key)}</dt><dd>${valueHtml(f, item.data[f.key], refName)}</dd>`)
    .join("");
  const json = new URL(asked.url);
  json.searchParams.set("format", "json");
  // A token kept out of URLs asks for the JSON by the same form as the page.
  const jsonLink = asked.form
    ? `${formAgain(asked, { format: "json" })}<button type="submit">Open the JSON</button></form>`
    : `<p><a href="${escapeAttr(json.pathname + json.search)}">Open the JSON</a></p>`;
  const body =
    `<p class="note">${escapeHtml(note)} Shared with you by link; please do not pass it on.</p>` +
    `<h1>${escapeHtml(title)}</h1>` +
    `<p>${escapeHtml(c.name)} · <code>${escapeHtml(item.slug)}</code></p>` +
    `<dl>${fields}</dl>` +
    `<h2>As JSON</h2>` +
    (limited ? `<p>This link allows a set number of opens, so the JSON is shown here only.</p>` : jsonLink) +
    `<pre>${escapeHtml(JSON.stringify({ item }, null, 2))}</pre>`;
  return plainPage(`Preview: ${title}`, body);
}
