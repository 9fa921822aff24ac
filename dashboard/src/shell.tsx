import { useEffect } from "preact/hooks";
import { signOut } from "./session";
import { go, href } from "./router";
import { CollectionEditor } from "./screens/collection-editor";
import { Collections } from "./screens/collections";
import { Integrate } from "./screens/integrate";
import { ItemEditor } from "./screens/item-editor";
import { Items } from "./screens/items";
import { Media } from "./screens/media";
import { Operator } from "./screens/operator";
import { AccountScreen } from "./screens/account";
import { Overview } from "./screens/overview";
import { Settings } from "./screens/settings";
import { Domains } from "./screens/domains";
import { PlanScreen } from "./screens/plan";
import { Search } from "./screens/search";
import { SeoEngine } from "./screens/seo-engine";
import { Workspace } from "./screens/workspace";
import { Webhooks } from "./webhooks/webhooks-screen";
import { ImportScreen } from "./import/import-screen";
import { Workspaces } from "./screens/workspaces";
import { pendingInvite } from "./pending-invite";
import { can, loadSite, site, siteError } from "./site-state";
import type { Session } from "./types";
import { ErrorNotice } from "./ui";

const NAV = [
  ["overview", "Overview"],
  ["collections", "Collections"],
  ["media", "Media"],
  ["search", "Search"],
  ["seo", "SEO Engine"],
  ["domains", "Domains"],
  ["integrate", "Integrate"],
  ["webhooks", "Webhooks"],
  ["plan", "Plan"],
  ["settings", "Settings"],
] as const;

export function Shell(props: { session: Session; path: string[] }) {
  const { session: s, path } = props;
  const [first, screen, ...rest] = path;
  const own = first === "operator" || first === "account" || first === "workspace" || first === "workspaces";
  const siteId = own ? undefined : (first ?? s.siteId);

  useEffect(() => {
    if (path.length === 0) {
      if (s.kind === "site") go(s.siteId!, "overview");
      // A person lands on their workspaces (a new one creates its first there), or back at the
      // invitation they opened before signing up or in.
      else if (s.kind === "account") {
        const invite = pendingInvite();
        if (invite) go("invite", invite);
        else go("workspaces");
      } else go("operator");
    } else if (siteId && site.value?.id !== siteId) {
      site.value = null;
      void loadSite(siteId);
    }
  }, [path.join("/")]);

  const current = site.value;
  const open = current && current.id === siteId ? current : null;
  return (
    <div class="shell">
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.querySelector<HTMLElement>("main h1")?.focus())}>
        Skip to content
      </a>
      <header class="top">
        {/* Two rows that each fit at 1280 px: where you are (site, workspace, account) with Sign out,
            then the open site's sections. One "Main" navigation holds both lists. */}
        <nav aria-label="Main" class="top-nav">
          <div class="brand">
            <span class="logo" aria-hidden="true">
              ◆
            </span>
            <span class="brand-name">{open ? open.name : "Content dashboard"}</span>
          </div>
          <ul class="places">
            {open && s.kind !== "site" && (
              <li>
                <a href={href("workspace", open.workspaceId)} aria-current={first === "workspace" ? "page" : undefined}>
                  Workspace
                </a>
              </li>
            )}
            {s.kind === "account" && (
              <li>
                <a href={href("workspaces")} aria-current={first === "workspaces" ? "page" : undefined}>
                  Your workspaces
                </a>
              </li>
            )}
            {s.kind === "account" && (
              <li>
                <a href={href("account")} aria-current={first === "account" ? "page" : undefined}>
                  Account
                </a>
              </li>
            )}
            {s.kind === "operator" && (
              <li>
                <a href={href("operator")} aria-current={first === "operator" ? "page" : undefined}>
                  Operator
                </a>
              </li>
            )}
          </ul>
          <button type="button" class="secondary small sign-out" onClick={() => void signOut()}>
            Sign out
          </button>
          {open && (
            <ul class="sections">
              {/* Settings (rename, admin key) and Webhooks are only for roles that may change them; the API stays the authority. */}
              {NAV.filter(([key]) =>
                key === "settings" ? can("site.settings", "keys.manage") : key === "webhooks" ? can("site.settings") : true,
              ).map(([key, label]) => (
                <li key={key}>
                  <a href={href(open.id, key)} aria-current={screenOf(screen) === key ? "page" : undefined}>
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </nav>
      </header>
      <main id="main">
        {first === "operator" ? (
          <Operator />
        ) : first === "workspace" && screen ? (
          <Workspace key={screen} workspaceId={screen} section={rest[0]} />
        ) : first === "account" ? (
          <AccountScreen />
        ) : first === "workspaces" ? (
          <Workspaces />
        ) : siteError.value ? (
          <ErrorNotice error={siteError.value} />
        ) : !open ? (
          <p class="loading">Loading…</p>
        ) : (
          // Keyed by the whole address: a new address is a new screen with its own state, so a form
          // never keeps (and never writes to) what an earlier address named.
          <Screen key={path.join("/")} screen={screen} rest={rest} />
        )}
      </main>
    </div>
  );
}

/** Items and the collection editor live under "Collections" in the navigation. */
const screenOf = (screen: string | undefined) =>
  screen === "items" || screen === "collection" || screen === "import" ? "collections" : screen;

function Screen(props: { screen: string | undefined; rest: string[] }) {
  const [a, b] = props.rest;
  switch (props.screen) {
    case "collections":
      return <Collections />;
    case "collection":
      return <CollectionEditor slug={a === "new" ? null : (a ?? null)} />;
    case "items":
      return b ? <ItemEditor collectionSlug={a!} itemId={b === "new" ? null : b} /> : <Items collectionSlug={a!} />;
    case "import":
      return <ImportScreen collectionSlug={a!} importId={b ?? null} />;
    case "media":
      return <Media />;
    case "integrate":
      return <Integrate />;
    case "settings":
      return <Settings />;
    case "webhooks":
      return <Webhooks />;
    case "search":
      return <Search />;
    case "seo":
      return <SeoEngine />;
    case "domains":
      return <Domains />;
    case "plan":
      return <PlanScreen />;
    default:
      return <Overview />;
  }
}
