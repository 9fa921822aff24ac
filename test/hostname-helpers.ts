import { env, exports } from "cloudflare:workers";
import { type TestSite, callJson, expectStatus, newBlog, ORIGIN } from "./helpers";
import { listPage } from "./fixtures/blog-pages";
import { capture, publishedPost, putPage } from "./ssr-helpers";

export interface HostnameView {
  hostname: string;
  cnameTarget: string;
  sslStatus: string;
  ownershipVerification?: { type: "txt"; name: string; value: string; verified: boolean };
  missing?: string[];
}

/** Publishes (or with null, removes) a TXT record on the tests' DNS-over-HTTPS resolver. */
export async function publishTxt(name: string, value: string | null): Promise<void> {
  const url = `${new URL(env.DOH_URL).origin}/records/${encodeURIComponent(name)}?type=TXT`;
  const res = await fetch(url, value === null ? { method: "DELETE" } : { method: "PUT", body: value });
  if (res.status !== 204) throw new Error(`DNS server refused ${name}: ${res.status}`);
}

/** Publishes the TXT record a registration asks for, as its owner would at their DNS provider. */
export async function proveOwnership(v: HostnameView): Promise<void> {
  if (!v.ownershipVerification) throw new Error(`no ownership record in ${JSON.stringify(v)}`);
  await publishTxt(v.ownershipVerification.name, v.ownershipVerification.value);
}

export const uniqueHost = (label = "blog") => `${label}-${crypto.randomUUID().slice(0, 8)}.example.test`;

export function register(site: TestSite, hostname: string) {
  return callJson<{ customHostname: HostnameView }>("POST", `/sites/${site.id}/ssr/custom-hostname`, {
    auth: site.adminKey,
    body: { hostname },
  });
}

export function view(site: TestSite) {
  return callJson<{ customHostname: HostnameView; replacing?: HostnameView }>("GET", `/sites/${site.id}/ssr/custom-hostname`, {
    auth: site.adminKey,
  });
}

/** A visitor's request on a hostname (Host header), as it reaches the service. */
export function onHost(hostname: string, path: string): Promise<Response> {
  return exports.default.fetch(new Request(`https://${hostname}${path}`, { redirect: "manual" }));
}

/** The validation URL from `missing`, requested the way the local provider expects it to arrive. */
export async function validate(hostname: string, v: HostnameView): Promise<Response> {
  const url = /http:\/\/\S+\/\.well-known\/oc-hostname\/[0-9a-f]+/.exec(v.missing?.join(" ") ?? "")?.[0];
  if (!url) throw new Error(`no validation URL in ${JSON.stringify(v)}`);
  return onHost(hostname, new URL(url).pathname);
}

/** An SEO Engine blog with a captured page and one post, ready to serve on a custom hostname. */
export async function renderedBlog(): Promise<TestSite> {
  const site = await newBlog("seo_engine");
  await publishedPost(site, "hello", { title: "Hello from the custom host" });
  const pageUrl = await putPage(listPage({ service: ORIGIN, token: site.token }));
  await expectStatus(capture(site, { pageUrl, collection: "posts" }), 201);
  return site;
}

export async function activeOn(site: TestSite, hostname: string): Promise<void> {
  const { body } = await expectStatus(register(site, hostname), 201).then((b) => ({ body: b }));
  await proveOwnership(body.customHostname);
  const res = await validate(hostname, body.customHostname);
  if (res.status !== 200) throw new Error(`validation failed: ${res.status} ${await res.text()}`);
}
