import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { accountIdOf, normaliseEmail } from "../src/identity/email";
import { accountStub } from "../src/stubs";
import { uniqueEmail } from "./helpers/mail";

const client = { userAgent: "Mozilla/5.0 Chrome/150.0", ip: "192.0.2.1", country: "NL" };

async function newAccount(password = "correct horse battery") {
  const email = normaliseEmail(uniqueEmail("obj"))!;
  const id = await accountIdOf(email);
  const made = await accountStub(env, id).create({ id, email, name: "Ada", password, client });
  if (!made) throw new Error("account not created");
  return { id, email, made, stub: accountStub(env, id) };
}

describe("Account object", () => {
  it("normalises addresses and derives one id per address, case-insensitively", async () => {
    expect(normaliseEmail("  Ada.Lovelace@Example.COM ")).toBe("ada.lovelace@example.com");
    expect(normaliseEmail("ada@BÜCHER.example")).toBe("ada@xn--bcher-kva.example");
    expect(normaliseEmail("not an address")).toBeNull();
    expect(normaliseEmail("a@b")).toBeNull();
    expect(normaliseEmail(`${"a".repeat(250)}@example.com`)).toBeNull();
    expect(await accountIdOf(normaliseEmail("ADA@example.com")!)).toBe(await accountIdOf(normaliseEmail("ada@EXAMPLE.com")!));
    expect(await accountIdOf("ada@example.com")).toMatch(/^ac_[a-z2-7]{26}$/);
  });

  it("takes memberships pushed by a workspace and answers them with the session", async () => {
    const { stub, made } = await newAccount();
    expect(made.id).toMatch(/^sa_ac_[a-z2-7]{26}_[a-z2-7]{40}$/);
    const membership = { workspaceId: "ws_aaaaaaaaaaaaaaaa", workspaceName: "Acme", role: "editor" as const, siteIds: null };
    expect(await stub.setMembership(membership.workspaceId, membership)).toEqual({ ok: true });
    const verified = await stub.verifySession(made.id);
    expect(verified?.memberships).toEqual([membership]);
    expect(verified?.account.email).toBe(made.account.email);
    // Removed: the very next verification no longer carries it.
    expect(await stub.setMembership(membership.workspaceId, null)).toEqual({ ok: true });
    expect((await stub.verifySession(made.id))?.memberships).toEqual([]);
    expect(await stub.setMembership("ws_bbbbbbbbbbbbbbbb", { ...membership, workspaceId: "ws_cccccccccccccccc" })).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it("stores nothing for an address nobody signed up with, and still runs the KDF on a sign-in", async () => {
    const id = await accountIdOf(normaliseEmail(uniqueEmail("ghost"))!);
    const stub = accountStub(env, id);
    expect(await stub.setMembership("ws_aaaaaaaaaaaaaaaa", null)).toEqual({ ok: false, reason: "no_account" });
    expect(await stub.signIn("correct horse battery", client)).toBeNull();
    expect(await stub.stats()).toEqual({ kdfRuns: 1, stored: false });
    expect(await stub.verifySession(`sa_${id}_${"a".repeat(40)}`)).toBeNull();
    expect(await stub.startReset()).toBeNull();
    expect(await stub.stats()).toEqual({ kdfRuns: 1, stored: false });
  });
});
