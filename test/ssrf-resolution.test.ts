import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FETCH_LIMITS, FetchPageError, fetchPage } from "../actors/site/ssr/fetch-page";
import { addresses } from "../src/net/doh";
import { checkResolved } from "../src/net/ssrf";
import { safeFetch, SafeFetchError } from "../src/net/safe-fetch";
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
    await publish(v6, "A", "8.8.8.8");
    await publish(v6, "AAAA", "::ffff:127.0.0.1");
    expect((await refusal(fetchPage(`http://${v6}/`, false, FETCH_LIMITS, resolve))).reason).toBe("private_address");
  });

  it("re-checks the name a redirect points to, and fetches nothing there", async () => {
    const pub = unique("public");
    const inside = unique("inside");
    await publish(pub, "A", "8.8.8.8");
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

  // IETF special-purpose and documentation ranges: no public service lives there, so a name that
  // resolves into one is refused like a private one (docs/ssrf.md).
  const SPECIAL: [string, "A" | "AAAA"][] = [
    ["192.0.0.170", "A"],
    ["192.0.2.1", "A"],
    ["192.88.99.1", "A"],
    ["198.51.100.7", "A"],
    ["203.0.113.10", "A"],
    ["100.64.0.1", "A"],
    ["198.18.0.1", "A"],
    ["240.0.0.1", "A"],
    ["255.255.255.255", "A"],
    ["2001:db8::1", "AAAA"],
    ["2001:2::1", "AAAA"],
    ["3fff:1::1", "AAAA"],
    ["100::1", "AAAA"],
    ["5f00::1", "AAAA"],
    ["64:ff9b:1::a00:1", "AAAA"],
    ["::ffff:192.0.2.1", "AAAA"],
  ];

  it("refuses documentation and other special-purpose addresses, written or resolved, and fetches nothing", async () => {
    const fetched: string[] = [];
    const fetcher: typeof fetch = (input) => {
      fetched.push(String(input));
      return Promise.resolve(new Response("should not be fetched"));
    };
    const shared = async (url: string) =>
      safeFetch(url, {
        allowPrivate: false,
        timeoutMs: 2000,
        maxRedirects: 5,
        accept: "*/*",
        noun: "file",
        hint: "h",
        resolve,
        fetcher,
      }).then(
        () => "fetched",
        (e: unknown) => (e instanceof SafeFetchError ? e.reason : String(e)),
      );
    for (const [address, type] of SPECIAL) {
      const literal = type === "A" ? address : `[${address}]`;
      expect((await refusal(fetchPage(`http://${literal}/`, false, FETCH_LIMITS, resolve, fetcher))).reason, literal).toBe(
        "private_address",
      );
      expect(await shared(`https://${literal}/cover.jpg`), literal).toBe("private_address");
      const name = unique("special");
      await publish(name, type, address);
      const err = await refusal(fetchPage(`http://${name}/`, false, FETCH_LIMITS, resolve, fetcher));
      expect(err.reason, `${name} → ${address}`).toBe("private_address");
      if (type === "A") expect(err.message).toContain(address);
      expect(await shared(`https://${name}/cover.jpg`), `${name} → ${address}`).toBe("private_address");
    }
    expect(fetched).toEqual([]);
  });

  it("still lets through names resolving to the public neighbours of those ranges", async () => {
    for (const [address, type] of [
      ["192.0.1.1", "A"],
      ["192.0.3.1", "A"],
      ["198.51.101.1", "A"],
      ["203.0.112.1", "A"],
      ["192.88.98.1", "A"],
      ["2001:200::1", "AAAA"],
      ["2001:4860::8888", "AAAA"],
      ["3fff:1000::1", "AAAA"],
    ] as const) {
      const name = unique("neighbour");
      await publish(name, type, address);
      expect(await checkResolved(`https://${name}/`, false, "h", resolve), address).toBe(`https://${name}/`);
    }
  });
});
