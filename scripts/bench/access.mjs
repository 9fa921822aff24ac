// The added cost of the role check on a dashboard request: `GET /sites/:id/collections`
// with the site's admin key (the Owner of one site, checked by the site as before) against the
// same request with a workspace API key (one hop to the workspace object, then the site checks
// the principal header against src/access) and a member's account session (`sa_` cookie: one hop
// to the Account object for the session and its memberships, then the same check). The account
// is made as a person makes one, through the product's own API and the local mail catcher's
// inbox (sign up, follow the mailed link, accept the operator's invitation): no back door. Batches of 200 sequential requests, 10 batches; CPU is the workerd process's (front
// Worker and every object), per request; p50 of the batch means. Run: `node scripts/bench/access.mjs`.
import { api, mailedToken, must, percentile } from "../lib.mjs";
import { buildWorker, startWorkerd, workerdCpuMs } from "../workerd-host.mjs";
import { startMailCatcher } from "../mail-catcher.mjs";

// BENCH_ONLY runs one part of `npm run bench` (api.mjs, media.mjs): not this one.
if (process.env.BENCH_ONLY) process.exit(0);

const BATCH = Number(process.env.BENCH_BATCH ?? 200);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 10);
const operator = "bench-operator";

const script = buildWorker(".bench/build");
const mail = await startMailCatcher();
const host = await startWorkerd({
  scriptPath: script,
  adminToken: operator,
  dashboard: false,
  embedderProcesses: 1,
  vars: { MAIL_TRANSPORT: "smtp", SMTP_HOST: "127.0.0.1", SMTP_PORT: String(mail.smtpPort), SMTP_STARTTLS: "false" },
});
try {
  const base = host.base;
  const { workspace } = await must(api(base, "POST", "/workspaces", operator, { name: "Bench", plan: "pro" }), "workspace");
  const { site } = await must(api(base, "POST", "/sites", operator, { name: "Bench", workspaceId: workspace.id }), "site");
  await must(
    api(base, "PUT", `/sites/${site.id}/collections/posts`, site.adminKey, { fields: [{ key: "title", type: "text" }] }),
    "collection",
  );
  const { apiKey } = await must(
    api(base, "POST", `/workspaces/${workspace.id}/api-keys`, operator, { name: "bench", scope: "full" }),
    "key",
  );
  const cookie = await memberSession(host.base, workspace.id);
  const path = `/sites/${site.id}/collections`;
  const callers = [
    ["site admin key (sk_, no role lookup)", { authorization: `Bearer ${site.adminKey}` }],
    ["workspace API key (ak_, workspace hop + role check)", { authorization: `Bearer ${apiKey.key}` }],
    ["member's account session (sa_, account hop + role check)", { cookie, origin: host.base }],
  ];
  const rows = [];
  for (const [label, headers] of callers) {
    const cpu = [];
    const wall = [];
    for (let b = 0; b < BATCHES + 1; b++) {
      const c0 = workerdCpuMs();
      for (let i = 0; i < BATCH; i++) {
        const t0 = performance.now();
        const r = await fetch(`${base}${path}`, { headers });
        await r.arrayBuffer();
        if (r.status !== 200) throw new Error(`${label}: ${r.status}`);
        wall.push(performance.now() - t0);
      }
      // The first batch warms the isolate and the objects up; it is not counted.
      if (b > 0) cpu.push((workerdCpuMs() - c0) / BATCH);
    }
    const asc = (a) => [...a].sort((x, y) => x - y);
    rows.push({ label, cpu: percentile(asc(cpu), 50), wall: percentile(asc(wall), 50) });
  }
  const baseRow = rows[0];
  console.log(
    `\nDashboard request, role check (${BATCHES} × ${BATCH} sequential GET ${"/sites/:id/collections"}; workerd CPU per request, p50 of batch means)\n`,
  );
  console.log("| caller | CPU ms/request (p50) | added CPU vs sk_ | wall p50 ms |");
  console.log("| --- | --- | --- | --- |");
  for (const r of rows)
    console.log(
      `| ${r.label} | ${r.cpu.toFixed(3)} | ${r === baseRow ? "—" : `${r.cpu - baseRow.cpu >= 0 ? "+" : ""}${(r.cpu - baseRow.cpu).toFixed(3)}`} | ${r.wall.toFixed(2)} |`,
    );
  console.log("\nGoal: the membership check adds < 1 ms of CPU at p50.");
} finally {
  await host.dispose();
  await mail.stop();
}

/** An Editor of the workspace, signed in: the session cookie, made through the public API and the inbox. */
async function memberSession(base, workspaceId) {
  const email = `bench+${Date.now()}@example.com`;
  const own = { "content-type": "application/json", origin: base };
  const post = (path, body, headers = {}) =>
    fetch(`${base}${path}`, { method: "POST", headers: { ...own, ...headers }, body: JSON.stringify(body) });
  const asked = await post("/accounts", { email });
  if (asked.status !== 202) throw new Error(`sign-up refused: ${asked.status}`);
  const made = await post("/accounts/verify", { token: await mailedToken(mail.inbox, email, "verify"), password: "correct horse battery" });
  if (made.status !== 201) throw new Error(`account not created: ${made.status}`);
  const cookie = made.headers.get("set-cookie").split(";")[0];
  const { token } = await must(api(base, "POST", `/workspaces/${workspaceId}/invitations`, operator, { role: "editor" }), "invitation");
  const accepted = await post("/invitations/accept", { token }, { cookie });
  if (accepted.status !== 200) throw new Error(`invitation not accepted: ${accepted.status}`);
  return cookie;
}
