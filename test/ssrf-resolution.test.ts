import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FETCH_LIMITS, FetchPageError, fetchPage } from "../actors/site/ssr/fetch-page";
import { addresses } from "../src/dns/doh";
import { putPage } from "./ssr-helpers";

/** Publishes an address record on the tests' DNS-over-HTTPS resolver (a real one, scripts/doh-server.mjs). */
async function publish(name: string, type: "A" | "AAAA", value: string): Promise<void> {
  const res = await fetch(`${new URL(env.DOH_URL).origin}/records/${name}?type=${type}`, { method: "PUT", body: value });
  expect(res.status).toBe(204);
}

const unique = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}.example.test`;
const resolve = (host: string) => addresses(env, host);

async function refusal(p: Promise<unknown>): Promise<FetchPageError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FetchPageError);
  return err as FetchPageError;
}

describe("server-side fetches check where a name resolves, before the fetch and after every redirect", () => {
  it("refuses a public-looking name that resolves to a private address (A or AAAA)", async () => {
    const v4 = unique("internal");
    await publish(v4, "A", "10.0.0.1");
    const a = await refusal(fetchPage(`http://${v4}/blog/`, false, FETCH_LIMITS, resolve));
    expect(a.reason).toBe("private_address");
    expect(a.message).toContain("10.0.0.1");
    const v6 = unique("mapped");
    await publish(v6, "A", "203.0.113.10");
    await publish(v6, "AAAA", "::ffff:127.0.0.1");
    expect((await refusal(fetchPage(`http://${v6}/`, false, FETCH_LIMITS, resolve))).reason).toBe("private_address");
  });

  it("re-checks the name a redirect points to, and fetches nothing there", async () => {
    const pub = unique("public");
    const inside = unique("inside");
    await publish(pub, "A", "203.0.113.10");
    await publish(inside, "A", "192.168.0.10");
    const page = await putPage("", { status: 302, location: `http://${inside}/admin` });
    const fetched: string[] = [];
    // The transport routes the public name to the page server (it has no real DNS entry).
    const fetcher: typeof fetch = (input, init) => {
      const url = String(input);
      fetched.push(url);
      return fetch(url.replace(`http://${pub}`, new URL(page).origin), init);
    };
    const err = await refusal(fetchPage(`http://${pub}${new URL(page).pathname}`, false, FETCH_LIMITS, resolve, fetcher));
    expect(err.reason).toBe("private_address");
    expect(fetched).toEqual([`http://${pub}${new URL(page).pathname}`]);
  });

  it("refuses a name that resolves to nothing", async () => {
    expect((await refusal(fetchPage(`http://${unique("nowhere")}/`, false, FETCH_LIMITS, resolve))).reason).toBe("unreachable");
  });
});
