/**
 * The layers of the code, checked by `npm run layers` (part of `npm run check`). ARCHITECTURE.md
 * ("Layers") says the same in words; this file is the one that is enforced.
 *
 * The site object's rooms, lowest first. A room imports only rooms of a lower step; rooms of one
 * step do not import each other. The jobs table (`actors/shared/jobs.ts`) sits below every room;
 * `actors/site/context.ts` is the object's face to its handlers and names types of any room.
 */
const SITE_STEPS = [
  ["storage"],
  ["access", "hostnames", "limits"],
  ["content"],
  ["reads"],
  ["history", "media", "search", "seo", "transfer", "webhooks", "locales"],
  ["ssr"],
  ["imports", "preview"],
  ["http"],
];

const room = (names) => `^actors/site/(${names.join("|")})/`;

const siteRules = SITE_STEPS.flatMap((step, i) => {
  const higher = SITE_STEPS.slice(i + 1).flat();
  const rules = [];
  if (higher.length)
    rules.push({
      name: `site-step-${i + 1}-below`,
      comment: `The site rooms ${step.join(", ")} sit below ${higher.join(", ")} and import none of them.`,
      severity: "error",
      from: { path: room(step) },
      to: { path: room(higher) },
    });
  for (const name of step) {
    const siblings = step.filter((other) => other !== name);
    if (siblings.length)
      rules.push({
        name: `site-${name}-beside-siblings`,
        comment: `The site room ${name} is on the same step as ${siblings.join(", ")} and imports none of them.`,
        severity: "error",
        from: { path: room([name]) },
        to: { path: room(siblings) },
      });
  }
  return rules;
});

/**
 * The front Worker's folders (and top-level files of src/), lowest first. A folder imports only
 * folders of its own step or a lower one; src/contract/ and src/shared/ sit below all of them
 * (their own rules say so). Helpers of a concern (edge cache, identity, limits) sit below the
 * feature folders whose routes and OpenAPI entries use them.
 */
const FRONT_STEPS = [
  ["log", "ids", "stubs", "http", "mail", "access", "openapi", "embed", "search", "net"],
  ["limits"],
  ["edge"],
  ["identity"],
  ["content"],
  ["accounts", "dashboard"],
  ["media", "imports", "preview"],
  ["ssr", "routing"],
  ["api-docs"],
  ["index"],
];

const front = (names) => `^src/(${names.join("|")})([.]ts$|/)`;

const frontRules = FRONT_STEPS.flatMap((step, i) => {
  const higher = FRONT_STEPS.slice(i + 1).flat();
  if (!higher.length) return [];
  return [
    {
      name: `front-step-${i + 1}-below`,
      comment: `The front Worker's ${step.join(", ")} sit below ${higher.join(", ")} and import none of them.`,
      severity: "error",
      from: { path: front(step) },
      to: { path: front(higher) },
    },
  ];
});

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No module reaches itself through its imports.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "worker-not-objects",
      comment: "The front Worker (src/) never imports the Durable Objects; only index.ts sees both.",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^actors/" },
    },
    {
      name: "contract-alone",
      comment: "src/contract/ is what every side agrees on: it imports only itself and zod.",
      severity: "error",
      from: { path: "^src/contract/" },
      to: { pathNot: ["^src/contract/", "^node_modules/zod/"] },
    },
    {
      name: "shared-alone",
      comment: "src/shared/ runs on both sides: it imports only itself and zod.",
      severity: "error",
      from: { path: "^src/shared/" },
      to: { pathNot: ["^src/shared/", "^node_modules/zod/"] },
    },
    {
      name: "dashboard-contract-only",
      comment: "The dashboard knows the service only through the contract (and the generated client).",
      severity: "error",
      from: { path: "^dashboard/" },
      to: { pathNot: ["^dashboard/", "^src/contract/", "^node_modules/", "^virtual:"] },
    },
    {
      name: "objects-apart",
      comment: "One Durable Object's code imports no other object's; what two share lives in actors/shared/.",
      severity: "error",
      from: { path: "^actors/([a-z-]+)(/|[.]ts$)" },
      to: { path: "^actors/", pathNot: ["^actors/$1(/|[.]ts$)", "^actors/shared/"] },
    },
    {
      name: "site-jobs-below-rooms",
      comment: "The jobs table (actors/shared/jobs.ts) runs every room's jobs and imports no room.",
      severity: "error",
      from: { path: "^actors/shared/jobs[.]ts$" },
      to: { path: "^actors/site/[^/]+/" },
    },
    ...siteRules,
    ...frontRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    // A worktree whose node_modules is a link to another checkout's still sees its packages under
    // node_modules/, which the rules above name.
    preserveSymlinks: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
