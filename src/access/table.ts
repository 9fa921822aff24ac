/**
 * The role table of docs/workspaces.md, rendered from the access data itself (roles.ts, operations.ts), so
 * the documentation cannot say something the API does not enforce. `npm run roles:table` writes
 * it into docs/workspaces.md; test/unit/access-table.test.ts fails when that copy differs.
 */
import { ACCESS, type AccessEntry } from "./operations";
import { KEY_PERMISSIONS, type Permission, ROLE_PERMISSIONS, ROLES } from "./roles";
import { ROLE_LABEL } from "../contract/principal";

export const TABLE_START = "<!-- role-table:start (generated from src/access by `npm run roles:table`) -->";
export const TABLE_END = "<!-- role-table:end -->";

function cell(perms: ReadonlySet<Permission>, e: AccessEntry, isKey: boolean): string {
  const a = e.access;
  if (a.who === "operator") return "—";
  if (a.who === "account") return isKey ? "—" : "✓";
  if (perms.has(a.permission)) return "✓";
  // Own-item permissions need an account (keys have no items of their own).
  if (!isKey && a.own && perms.has(a.own)) return perms.has("items.publish.own") ? "own" : "own drafts";
  return "—";
}

export function roleTable(): string {
  const head = ["Operation", "Permission", ...ROLES.map((r) => ROLE_LABEL[r]), "read key", "full key"];
  const rows = ACCESS.map((e) => {
    const perm =
      e.access.who === "member" ? (e.access.own ? `${e.access.permission} / ${e.access.own}` : e.access.permission) : e.access.who;
    return [
      `${e.id} \`${e.method.toUpperCase()} ${e.path}\``,
      `\`${perm}\``,
      ...ROLES.map((r) => cell(ROLE_PERMISSIONS[r], e, false)),
      cell(KEY_PERMISSIONS.read, e, true),
      cell(KEY_PERMISSIONS.full, e, true),
    ];
  });
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

export function roleTableBlock(): string {
  return `${TABLE_START}\n\n${roleTable()}\n\n${TABLE_END}`;
}
