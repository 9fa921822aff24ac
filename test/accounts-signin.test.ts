import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { call, callJson, ORIGIN } from "./helpers";
import { mailTo, mailsTo, uniqueEmail } from "./helpers/mail";
import { cookieOf, PASSWORD, signIn, signUp } from "./helpers/accounts";
import { accountIdOf } from "../src/identity/email";
import { accountStub } from "../src/stubs";

const ip = (n: number) => ({ "cf-connecting-ip": `198.51.100.${n}` });
let nextIp = 1;
const freshIp = () => ip(nextIp++);
const withoutDate = (r: Response) => [...r.headers].filter(([k]) => k !== "date");

describe("sign-in with email and password", () => {
  it("answers a wrong password and an unknown address identically, after the same KDF work", async () => {
    const { email, account } = await signUp();
    const stranger = uniqueEmail("stranger");
    const strangerStub = accountStub(env, await accountIdOf(stranger));
    const knownStub = accountStub(env, account.id);
    const before = (await knownStub.stats()).kdfRuns;
    const wrong = await call("POST", "/sessions", {
      body: { email, password: "wrong horse battery" },
      headers: { origin: ORIGIN, ...freshIp() },
    });
    const unknown = await call("POST", "/sessions", {
      body: { email: stranger, password: "wrong horse battery" },
      headers: { origin: ORIGIN, ...freshIp() },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.text()).toBe(await unknown.text());
    expect(withoutDate(wrong)).toEqual(withoutDate(unknown));
    expect((await knownStub.stats()).kdfRuns - before).toBe(1);
    expect(await strangerStub.stats()).toEqual({ kdfRuns: 1, stored: false });
  });

  it("throttles a fourth wrong password from one client, for an unknown address exactly like a known one", async () => {
    const { email } = await signUp();
    const stranger = uniqueEmail("stranger");
    const answers: Response[][] = [[], []];
    const client = freshIp();
    for (let i = 0; i < 4; i++) {
      answers[0]!.push(
        await call("POST", "/sessions", { body: { email, password: `wrong-pass-${i}!` }, headers: { origin: ORIGIN, ...client } }),
      );
      answers[1]!.push(
        await call("POST", "/sessions", {
          body: { email: stranger, password: `wrong-pass-${i}!` },
          headers: { origin: ORIGIN, ...client },
        }),
      );
    }
    expect(answers[0]!.map((r) => r.status)).toEqual([401, 401, 401, 429]);
    expect(answers[1]!.map((r) => r.status)).toEqual([401, 401, 401, 429]);
    const [k, u] = [answers[0]![3]!, answers[1]![3]!];
    expect(k.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(u.headers.get("retry-after")).toBe(k.headers.get("retry-after"));
    expect((await u.json()) as unknown).toEqual((await k.json()) as unknown);
    // Even the right password waits its turn from that client; another client still signs in.
    expect((await signIn(email, PASSWORD, client)).status).toBe(429);
    expect((await signIn(email, PASSWORD, freshIp())).status).toBe(201);
  });

  it("counts one account's wrong passwords across clients, and a parallel burst one by one", async () => {
    const { email } = await signUp();
    // 20 free per account from anywhere: 7 clients × 3 (the 21st is refused whoever sends it).
    const statuses: number[] = [];
    for (let c = 0; c < 7; c++) {
      const client = freshIp();
      for (let i = 0; i < 3; i++) statuses.push((await signIn(email, `wrong-${c}-${i}-password`, client)).status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
    expect((await signIn(email, PASSWORD, freshIp())).status).toBe(429);

    const other = uniqueEmail("burst");
    const client = freshIp();
    const burst = await Promise.all(Array.from({ length: 6 }, (_, i) => signIn(other, `burst-${i}-password`, client)));
    expect(burst.filter((r) => r.status === 401)).toHaveLength(3);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(3);
  });

  it("mails a notice when a new browser signs in, not when a known one does", async () => {
    const { email } = await signUp(uniqueEmail(), PASSWORD, { "user-agent": "Mozilla/5.0 Chrome/150.0 Safari/537.36" });
    expect((await signIn(email, PASSWORD, { "user-agent": "Mozilla/5.0 Chrome/151.0 Safari/537.36" })).status).toBe(201);
    expect((await signIn(email, PASSWORD, { "user-agent": "Mozilla/5.0 Firefox/140.0" })).status).toBe(201);
    const notice = await mailTo(email, /New sign-in/);
    expect(notice.text).toMatch(/Firefox/);
    await new Promise((r) => setTimeout(r, 300));
    expect((await mailsTo(email)).filter((m) => /New sign-in/.test(m.subject))).toHaveLength(1);
  });
});

describe("account sessions", () => {
  it("lists the live sessions, ends one from another browser, and signs out", async () => {
    const { email, cookie: first } = await signUp();
    const second = cookieOf((await signIn(email, PASSWORD)).res);
    const list = await callJson<{ sessions: { id: string; current: boolean }[] }>("GET", "/account/sessions", {
      headers: { cookie: second },
    });
    expect(list.status).toBe(200);
    expect(list.body.sessions).toHaveLength(2);
    expect(JSON.stringify(list.body)).not.toContain(first.split("=")[1]);
    const other = list.body.sessions.find((s) => !s.current)!;
    // Ending one is a change: only from the dashboard's own origin.
    expect(
      (await call("DELETE", `/account/sessions/${other.id}`, { headers: { cookie: second, origin: "https://elsewhere.test" } })).status,
    ).toBe(403);
    expect((await call("DELETE", `/account/sessions/${other.id}`, { headers: { cookie: second, origin: ORIGIN } })).status).toBe(200);
    expect((await call("GET", "/sessions/current", { headers: { cookie: first } })).status).toBe(401);
    expect((await call("DELETE", `/account/sessions/${other.id}`, { headers: { cookie: second, origin: ORIGIN } })).status).toBe(404);
    const out = await call("DELETE", "/sessions/current", { headers: { cookie: second, origin: ORIGIN } });
    expect(out.status).toBe(200);
    expect((await call("GET", "/sessions/current", { headers: { cookie: second } })).status).toBe(401);
    expect((await call("GET", "/account/sessions", { headers: { cookie: second } })).status).toBe(401);
  });

  it("sends the account principal with a site request made with an account session", async () => {
    const { cookie, account } = await signUp();
    // No workspace has the account yet: the request is the site's to refuse, and nothing leaks.
    const res = await callJson<{ error: { code: string } }>("GET", "/sites/aaaaaaaaaaaaaaaa/collections", { headers: { cookie } });
    expect([401, 403, 404]).toContain(res.status);
    expect(JSON.stringify(res.body)).not.toContain(account.email);
  });
});
