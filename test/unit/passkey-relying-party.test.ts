import { describe, expect, it } from "vitest";
import { accountOfUserHandle, relyingParty } from "../../src/identity/passkeys";
import { ApiError } from "../../src/contract/errors";

const req = (url: string) => new Request(url, { method: "POST" });

describe("passkeys' relying party", () => {
  it("is the request's host and origin unless configured", () => {
    expect(relyingParty(req("http://localhost:8720/sessions/passkey"), {})).toEqual({
      rpID: "localhost",
      origins: ["http://localhost:8720"],
    });
    expect(relyingParty(req("https://api.example.com/x"), { PASSKEY_RP_ID: "", PASSKEY_ORIGINS: "" })).toEqual({
      rpID: "api.example.com",
      origins: ["https://api.example.com"],
    });
  });

  it("is the configured one when PASSKEY_RP_ID is set, on whichever host the request came", () => {
    expect(relyingParty(req("https://api.example.com/x"), { PASSKEY_RP_ID: "example.com" })).toEqual({
      rpID: "example.com",
      origins: ["https://example.com"],
    });
    expect(
      relyingParty(req("https://api.example.com/x"), {
        PASSKEY_RP_ID: "example.com",
        PASSKEY_ORIGINS: "https://app.example.com, https://api.example.com",
      }),
    ).toEqual({ rpID: "example.com", origins: ["https://app.example.com", "https://api.example.com"] });
  });

  it("refuses an IP address host with a message saying to open localhost", () => {
    for (const url of ["http://127.0.0.1:8720/x", "http://[::1]:8720/x"]) {
      let thrown: unknown;
      try {
        relyingParty(req(url), {});
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      expect((thrown as ApiError).message).toContain("http://localhost:8720/dashboard/");
    }
  });

  it("reads an account id from a user handle, and nothing else", () => {
    const id = "ac_abcdefghijklmnopqrstuvwxyz";
    const handle = btoa(id).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    expect(accountOfUserHandle(handle)).toBe(id);
    expect(accountOfUserHandle(btoa("ac_short"))).toBeNull();
    expect(accountOfUserHandle("!!")).toBeNull();
    expect(accountOfUserHandle(undefined)).toBeNull();
  });
});
