// `npm run bench` (last part): what an account sign-in costs with each password KDF.
// For each of argon2id (m=19456 KiB, t=2, p=1) and PBKDF2-SHA256 (100,000 iterations, the most
// production Workers allow): POST /sessions {email, password} timed end to end on plain workerd
// (direct socket, no wrangler proxy), and the workerd processes' CPU per sign-in from /proc.
// Three kinds of attempt: the right password, a wrong one for a real account, and an address
// with no account (the last two must cost the same: enumeration resistance, docs/accounts.md).
// BENCH_SIGNINS (20) attempts of each kind; each from its own client address, so the throttles
// (3 wrong per client and account, 20 per account a day) never refuse one.
// Then passkey sign-in (no KDF: options, then @simplewebauthn/server's ES256 verification in the
// Account object), timed and measured the same way on `localhost` (passkeys refuse an IP host).
import { buildWorker, startWorkerd, workerdCpuMs } from "../workerd-host.mjs";
import { startMailCatcher } from "../mail-catcher.mjs";
import { mailedToken, percentile } from "../lib.mjs";
// The workerd tests' software authenticator (real ES256 keys and CBOR), run here with Node's type stripping.
import { SoftAuthenticator } from "../../test/helpers/soft-authenticator.ts";

// BENCH_ONLY runs one part of `npm run bench` (api.mjs, media.mjs): not this one.
if (process.env.BENCH_ONLY) process.exit(0);

const N = Math.min(20, Number(process.env.BENCH_SIGNINS ?? 20));
const PASSWORD = "correct horse battery staple";
let ip = 0;
const nextIp = () => `203.0.${Math.floor(++ip / 250)}.${ip % 250}`;

const script = buildWorker(".bench/build-accounts");
const mail = await startMailCatcher();
const rows = [];
try {
  for (const kdf of ["argon2id", "pbkdf2"]) {
    const host = await startWorkerd({
      scriptPath: script,
      adminToken: "bench-operator",
      dashboard: false,
      embedderProcesses: 1,
      vars: { PASSWORD_KDF: kdf, MAIL_TRANSPORT: "smtp", SMTP_HOST: "127.0.0.1", SMTP_PORT: String(mail.smtpPort), SMTP_STARTTLS: "false" },
    });
    try {
      const email = `bench+${kdf}-${Date.now()}@example.com`;
      await (await post(host.base, "/accounts", { email }, nextIp())).arrayBuffer();
      const token = await mailedToken(mail.inbox, email, "verify");
      const made = await post(host.base, "/accounts/verify", { token, password: PASSWORD }, nextIp());
      if (made.status !== 201) throw new Error(`account not created: ${made.status}`);
      await made.arrayBuffer();
      const auth = new SoftAuthenticator("localhost", host.base.replace("127.0.0.1", "localhost"));
      if (kdf === "argon2id") await passkeyRows(host.base.replace("127.0.0.1", "localhost"), auth, made);
      for (const [kind, body] of [
        ["right password", () => ({ email, password: PASSWORD })],
        ["wrong password", () => ({ email, password: "not the right one at all" })],
        ["no such account", () => ({ email: `nobody+${Math.random()}@example.com`, password: "not the right one at all" })],
      ]) {
        const times = [];
        const cpu0 = workerdCpuMs();
        for (let i = 0; i < N; i++) {
          const t0 = performance.now();
          const r = await post(host.base, "/sessions", body(), nextIp());
          await r.arrayBuffer();
          times.push(performance.now() - t0);
          const expected = kind === "right password" ? 201 : 401;
          if (r.status !== expected) throw new Error(`${kdf} ${kind}: ${r.status}, expected ${expected}`);
        }
        const cpu = (workerdCpuMs() - cpu0) / N;
        times.sort((a, b) => a - b);
        rows.push({ kdf, kind, p50: percentile(times, 50), p90: percentile(times, 90), cpu });
      }
    } finally {
      await host.dispose();
    }
  }
} finally {
  await mail.stop();
}

console.log(
  `\nAccount sign-in (POST /sessions {email, password}; passkey: options + POST /sessions/passkey), ${N} each, sequential, plain workerd`,
);
console.log("| KDF | attempt | p50 ms | p90 ms | workerd CPU ms / sign-in |");
console.log("| --- | --- | ---: | ---: | ---: |");
for (const r of rows) console.log(`| ${r.kdf} | ${r.kind} | ${r.p50.toFixed(1)} | ${r.p90.toFixed(1)} | ${r.cpu.toFixed(1)} |`);

async function post(base, path, body, client, headers = {}) {
  const r = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": client, ...headers },
    body: JSON.stringify(body),
  });
  return r;
}

/** Adds a passkey to the account just made, then signs in with it N times: both requests of a sign-in are timed. */
async function passkeyRows(base, auth, made) {
  const cookie = made.headers.get("set-cookie").split(";")[0];
  const origin = { origin: base };
  const { options } = await (await post(base, "/account/passkeys/options", {}, nextIp(), { cookie, ...origin })).json();
  const added = await post(base, "/account/passkeys", { response: await auth.register(options) }, nextIp(), { cookie, ...origin });
  if (added.status !== 201) throw new Error(`passkey not added: ${added.status} ${await added.text()}`);
  const times = [];
  const cpu0 = workerdCpuMs();
  for (let i = 0; i < N; i++) {
    const client = nextIp();
    const t0 = performance.now();
    const { options: challenge } = await (await post(base, "/sessions/passkey/options", {}, client, origin)).json();
    // The authenticator's signature is the browser's work, not the service's: left out of the time.
    const t1 = performance.now();
    const response = await auth.assert(challenge);
    const t2 = performance.now();
    const r = await post(base, "/sessions/passkey", { response }, client, origin);
    await r.arrayBuffer();
    times.push(t1 - t0 + (performance.now() - t2));
    if (r.status !== 201) throw new Error(`passkey sign-in: ${r.status}`);
  }
  const cpu = (workerdCpuMs() - cpu0) / N;
  times.sort((a, b) => a - b);
  rows.push({ kdf: "none (passkey)", kind: "passkey (ES256)", p50: percentile(times, 50), p90: percentile(times, 90), cpu });
}
