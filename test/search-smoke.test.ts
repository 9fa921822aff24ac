import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { addItem, callJson, newBlog } from "./helpers";

it("smoke", async () => {
  const site = await newBlog();
  await addItem(site, "posts", { slug: "dog", data: { title: "Teaching your puppy to sit and stay" }, publish: true });
  await addItem(site, "posts", { slug: "tax", data: { title: "Filing your quarterly income tax return" }, publish: true });
  const stub = env.SITE.get(env.SITE.idFromName(site.id));
  console.log(await runDurableObjectAlarm(stub));
  const r = await callJson("GET", `/v1/${site.token}/search?q=how+do+I+teach+my+puppy+to+sit`);
  console.log(JSON.stringify(r.body));
  const rel = await callJson("GET", `/v1/${site.token}/collections/posts/items/dog/related`);
  console.log(JSON.stringify(rel.body));
  const d = await callJson("GET", `/sites/${site.id}/collections/posts/items?status=published`, { auth: site.adminKey });
  console.log(JSON.stringify(d.body));
  expect(r.status).toBe(200);
});
