// `npm run seed`: one more demo site (SEO Engine plan, authors and posts) on a running service.
// BASE (default http://127.0.0.1:8787, or PORT) and ADMIN_TOKEN (else .dev.vars) say where and who.
import { adminToken } from "./lib.mjs";
import { seedDemoSite } from "./demo-content.mjs";

const base = process.env.BASE ?? `http://127.0.0.1:${process.env.PORT ?? 8787}`;
const { token: operator } = adminToken();
const posts = Number(process.env.POSTS ?? 12);
// Covers point at the demo page server of `npm start` (DEMO_PAGES_PORT, default PORT + 1).
const demoPort = process.env.DEMO_PAGES_PORT ?? Number(process.env.PORT ?? 8787) + 1;
const site = await seedDemoSite(base, operator, posts, `http://127.0.0.1:${demoPort}`);
console.log(JSON.stringify({ base, ...site }, null, 2));
