import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { checkReceiverUrl, ReceiverUrlError } from "../../actors/site/webhooks/receiver-url";

/** Production's setting: private addresses refused (the test project allows them for its local receiver). */
const production = { ...env, SSR_ALLOW_PRIVATE_FETCH: "false" } as Env;

async function publish(name: string, type: "A" | "AAAA", value: string): Promise<void> {
  const res = await fetch(`${new URL(env.DOH_URL).origin}/records/${name}?type=${type}`, { method: "PUT", body: value });
  expect(res.status).toBe(204);
}

async function refusal(url: string): Promise<string> {
  const err = await checkReceiverUrl(production, url).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, url).toBeInstanceOf(ReceiverUrlError);
  return (err as ReceiverUrlError).reason;
}

const unique = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}.example.test`;

describe("webhook receivers: the capture's address rules", () => {
  it("refuses http:, credentials, loopback, private and metadata addresses", async () => {
    expect(await refusal("http://hooks.example.com/x")).toBe("bad_url");
    expect(await refusal("https://a:b@hooks.example.com/x")).toBe("bad_url");
    expect(await refusal("not a url")).toBe("bad_url");
    expect(await refusal("https://127.0.0.1/hook")).toBe("private_address");
    expect(await refusal("https://10.0.0.1/hook")).toBe("private_address");
    expect(await refusal("https://[::1]/hook")).toBe("private_address");
    expect(await refusal("https://localhost/hook")).toBe("private_address");
    const metadata = unique("metadata");
    await publish(metadata, "A", "169.254.169.254");
    expect(await refusal(`https://${metadata}/hook`)).toBe("private_address");
    expect(await refusal(`https://${unique("nowhere")}/hook`)).toBe("unreachable");
    // A documentation range (RFC 5737) is no receiver anyone runs.
    const doc = unique("docs");
    await publish(doc, "A", "203.0.113.10");
    expect(await refusal(`https://${doc}/hook`)).toBe("private_address");
    expect(await refusal("https://[2001:db8::1]/hook")).toBe("private_address");
  });

  it("accepts an https: name that resolves to public addresses only", async () => {
    const pub = unique("receiver");
    await publish(pub, "A", "8.8.8.8");
    expect(await checkReceiverUrl(production, `https://${pub}/hook`)).toBe(`https://${pub}/hook`);
  });
});
