/**
 * The contract test's calls of the owner's redirects: list, add, change, delete and the CSV both
 * ways, each success and each documented error. They run inside the `describe` of
 * test/contract.test.ts, whose `afterAll` checks that every documented answer was produced.
 */
import { expect, it } from "vitest";
import { REDIRECT_LIMITS } from "../../src/contract/redirects";
import { UNKNOWN_SITE, fixture, hit } from "./hit";

const csv = { "content-type": "text/csv" };

/** Registers this area's tests inside the contract test's `describe`. */
export function redirectCalls(): void {
  it("describes the owner's redirects", async () => {
    const { seo, starter } = await fixture();
    const auth = seo.adminKey;
    const base = `/sites/${seo.id}/ssr/redirects`;
    const made = await hit("createRedirect", "POST", base, { auth, body: { from: "/blog/old", to: "/blog/new" } });
    const id = (made.body.redirect as { id: string }).id;
    await hit("createRedirect", "POST", base, { auth, body: { from: "/blog/other", to: "https://example.com/" } });
    await hit("createRedirect", "POST", base, { auth, body: { from: "no-slash", to: "/x" } });
    await hit("createRedirect", "POST", base, { auth, body: { from: "/blog/old/", to: "/y" } });
    await hit("createRedirect", "POST", `/sites/${starter.id}/ssr/redirects`, { auth: starter.adminKey, body: { from: "/a", to: "/b" } });
    await hit("createRedirect", "POST", `/sites/${UNKNOWN_SITE}/ssr/redirects`, { auth, body: { from: "/a", to: "/b" } });

    const listed = await hit("listRedirects", "GET", `${base}?q=old&page=1`, { auth });
    expect(listed.body.total).toBe(1);
    await hit("listRedirects", "GET", `/sites/${UNKNOWN_SITE}/ssr/redirects`, { auth });

    await hit("updateRedirect", "PUT", `${base}/${id}`, { auth, body: { from: "/blog/old", to: "/blog/newer", status: 302 } });
    await hit("updateRedirect", "PUT", `${base}/${id}`, { auth, body: { from: "/blog/old", to: "/blog/old" } });
    await hit("updateRedirect", "PUT", `${base}/${id}`, { auth, body: { from: "/blog/other", to: "/z" } });
    await hit("updateRedirect", "PUT", `${base}/rd_none`, { auth, body: { from: "/q", to: "/r" } });
    await hit("updateRedirect", "PUT", `/sites/${starter.id}/ssr/redirects/rd_none`, {
      auth: starter.adminKey,
      body: { from: "/q", to: "/r" },
    });

    const file = await hit("exportRedirects", "GET", `${base}.csv`, { auth });
    expect(file.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    await hit("exportRedirects", "GET", `/sites/${UNKNOWN_SITE}/ssr/redirects.csv`, { auth });

    const imports = `${base}/import`;
    expect((await hit("importRedirects", "POST", imports, { auth, body: "from,to\r\n/c,/d\r\n", headers: csv })).body).toEqual({
      added: 1,
      updated: 0,
      unchanged: 0,
    });
    await hit("importRedirects", "POST", imports, { auth, body: "old,new\r\n/c,/d\r\n", headers: csv });
    await hit("importRedirects", "POST", `/sites/${starter.id}/ssr/redirects/import`, {
      auth: starter.adminKey,
      body: "from,to\r\n",
      headers: csv,
    });
    await hit("importRedirects", "POST", `/sites/${UNKNOWN_SITE}/ssr/redirects/import`, { auth, body: "from,to\r\n", headers: csv });
    const tooMany = ["from,to", ...Array.from({ length: REDIRECT_LIMITS.perSite + 1 }, (_, i) => `/m${i},/n`)].join("\r\n");
    await hit("importRedirects", "POST", imports, { auth, body: tooMany, headers: csv });
    // The site full: one more rule is refused, by the form and by a file.
    const full = ["from,to", ...Array.from({ length: REDIRECT_LIMITS.perSite - 3 }, (_, i) => `/m${i},/n`)].join("\r\n");
    await hit("importRedirects", "POST", imports, { auth, body: full, headers: csv });
    await hit("importRedirects", "POST", imports, { auth, body: "from,to\r\n/one-more,/n\r\n", headers: csv });
    await hit("createRedirect", "POST", base, { auth, body: { from: "/one-more", to: "/n" } });

    await hit("deleteRedirect", "DELETE", `${base}/${id}`, { auth });
    await hit("deleteRedirect", "DELETE", `${base}/${id}`, { auth });
    await hit("deleteRedirect", "DELETE", `/sites/${starter.id}/ssr/redirects/rd_none`, { auth: starter.adminKey });
  });
}
