// `npm run bench` (last part): what an account sign-in costs with each password KDF.
// For each of argon2id (m=19456 KiB, t=2, p=1) and PBKDF2-SHA256 (100,000 iterations, the most
// production Workers allow): POST /sessions {email, password} timed end to end on plain workerd
// (direct socket, no wrangler proxy), and the workerd processes' CPU per sign-in from /proc.
// Three kinds of attempt: the right password, a wrong one for a real account, and an address
// with no account (the last two must cost the same: enumeration resistance, docs/accounts.md).
// BENCH_SIGNINS (20) attempts of each kind; each from its own client address, so the throttles
// (3 wrong per client and account, 20 per account a day) never refuse one.
import { buildWorker, startWorkerd, workerdCpuMs } from "../workerd-host.mjs";
import { startMailCatcher } from "../mail-catcher.mjs";
import { mailedToken, percentile } from "../lib.mjs";

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
      await post(host.base, "/accounts", { email }, nextIp());
      const token = await mailedToken(mail.inbox, email, "verify");
      const made = await post(host.base, "/accounts/verify", { token, password: PASSWORD }, nextIp());
      if (made.status !== 201) throw new Error(`account not created: ${made.status}`);
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

console.log(`\nAccount sign-in (POST /sessions {email, password}), ${N} each, sequential, plain workerd`);
console.log("| KDF | attempt | p50 ms | p90 ms | workerd CPU ms / sign-in |");
console.log("| --- | --- | ---: | ---: | ---: |");
for (const r of rows) console.log(`| ${r.kdf} | ${r.kind} | ${r.p50.toFixed(1)} | ${r.p90.toFixed(1)} | ${r.cpu.toFixed(1)} |`);

async function post(base, path, body, client) {
  const r = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "cf-connecting-ip": client },
    body: JSON.stringify(body),
  });
  await r.arrayBuffer();
  return r;
}
