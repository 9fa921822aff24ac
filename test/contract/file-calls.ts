/**
 * The contract test's calls of one area: media uploads, history and schedules,
 * share links, outbound webhooks and exports, and imports. They run inside the
 * `describe` of test/contract.test.ts, whose `afterAll` checks that every documented answer was produced.
 */
import { exports } from "cloudflare:workers";
import { expect, inject, it } from "vitest";
import { ORIGIN, OPERATOR, addItem, call, callJson, newBlog, newSite } from "../helpers";
import { putPage } from "../ssr-helpers";
import { mediaFile } from "../fixtures/media-files";
import { SERVICE_TOKEN_HEADER } from "../../src/contract/headers";
import { IMPORT_LIMITS } from "../../src/contract/imports";
import { until as importUntil } from "../import/helpers";
import { UNKNOWN_SITE, big, fixture, hit, hitRequest } from "./hit";

/** Registers this area's tests inside the contract test's `describe`. */
export function fileCalls(): void {
  it("describes media uploads and stored files", async () => {
    const { blog } = await fixture();
    const files = `${ORIGIN}/sites/${blog.id}/media/files`;
    const raw = (bytes: Uint8Array | ReadableStream<Uint8Array>, name: string, length?: number) =>
      new Request(files, {
        method: "POST",
        headers: {
          authorization: `Bearer ${blog.adminKey}`,
          "x-file-name": name,
          ...(length !== undefined
            ? { "content-length": String(length) }
            : bytes instanceof Uint8Array
              ? { "content-length": String(bytes.byteLength) }
              : {}),
        },
        body: bytes,
      });
    const made = await hitRequest("uploadMedia", raw(mediaFile("photo.jpg"), "photo.jpg"));
    expect(made.status).toBe(201);
    await hitRequest("uploadMedia", raw(mediaFile("photo.jpg"), "again.jpg"));
    const form = new FormData();
    form.append("alt", "A clip");
    form.append("file", new File([mediaFile("clip.mp4")], "clip.mp4"));
    await hitRequest(
      "uploadMedia",
      new Request(files, { method: "POST", headers: { authorization: `Bearer ${blog.adminKey}` }, body: form }),
    );
    await hitRequest("uploadMedia", raw(new Uint8Array(0), "empty.jpg"));
    await hitRequest("uploadMedia", raw(mediaFile("bomb.png"), "bomb.png"));
    const chunked = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(mediaFile("small.jpg"));
        c.close();
      },
    });
    await hitRequest("uploadMedia", raw(chunked, "chunked.jpg"));
    // A body that stops arriving: cut after the idle limit (2 s here).
    const stalled = new ReadableStream<Uint8Array>({
      pull(c) {
        c.enqueue(mediaFile("small.jpg").subarray(0, 2000));
        return new Promise(() => undefined);
      },
    });
    await hitRequest("uploadMedia", raw(stalled, "stalled.jpg", 5109));

    const media = made.body.media as { url: string; srcset: string };
    await hitRequest("getMediaFile", new Request(media.url, { headers: { accept: "image/webp" } }));
    const clip = (
      (await call("GET", `/sites/${blog.id}/media?limit=50`, { auth: blog.adminKey }).then((r) => r.json())) as {
        media: { url: string; type?: string }[];
      }
    ).media.find((m) => m.type === "video/mp4")!;
    const clipFile = await hitRequest("getMediaFile", new Request(clip.url));
    await hitRequest("getMediaFile", new Request(clip.url, { headers: { "if-none-match": clipFile.headers.get("etag")! } }));
    await hitRequest("getMediaFile", new Request(clip.url, { headers: { range: "bytes=0-9" } }));
    await hitRequest("getMediaFile", new Request(clip.url, { headers: { range: "bytes=999999-" } }));
    await hitRequest("getMediaFile", new Request(clip.url.replace(/\/[0-9a-f]{12}\//, "/000000000000/")));

    const w320 = media.srcset.split(", ")[0]!.split(" ")[0]!;
    const variant = await hitRequest("getMediaVariant", new Request(w320, { headers: { accept: "image/webp" } }));
    await hitRequest(
      "getMediaVariant",
      new Request(w320, { headers: { accept: "image/webp", "if-none-match": variant.headers.get("etag")! } }),
    );
    await hitRequest("getMediaVariant", new Request(w320.replace("/w/320/", "/w/321/")));
    // A PNG whose header is whole but whose pixels are cut off: stored (its size is known), but it cannot be resized.
    const png = mediaFile("photo.png");
    const broken = await hitRequest("uploadMedia", raw(png.slice(0, 200), "broken.png"));
    const brokenRef = broken.body.media as { srcset: string };
    await hitRequest(
      "getMediaVariant",
      new Request(brokenRef.srcset.split(", ")[0]!.split(" ")[0]!, { headers: { accept: "image/webp" } }),
    );

    // Delete: in use (409), detached (200), gone (404).
    const cover = (await hitRequest("uploadMedia", raw(mediaFile("photo.gif"), "cover.gif"))).body.media as { mediaId: string };
    await addItem(blog, "posts", { slug: "with-cover", data: { title: "With a cover", cover: cover.mediaId } });
    await hit("deleteMedia", "DELETE", `/sites/${blog.id}/media/${cover.mediaId}`, { auth: blog.adminKey });
    await hit("deleteMedia", "DELETE", `/sites/${blog.id}/media/${cover.mediaId}?detach=true`, { auth: blog.adminKey });
    await hit("deleteMedia", "DELETE", `/sites/${blog.id}/media/${cover.mediaId}`, { auth: blog.adminKey });

    // Replace: done (200), unknown id (404), the bytes of another entry (409), another kind (415), pixels (413), empty (400), no length (411), stalled (408).
    const put = (mediaId: string, bytes: Uint8Array | ReadableStream<Uint8Array>, length?: number) =>
      new Request(`${ORIGIN}/sites/${blog.id}/media/${mediaId}/file`, {
        method: "PUT",
        headers: {
          authorization: `Bearer ${blog.adminKey}`,
          "x-file-name": "new.png",
          ...(length !== undefined ? { "content-length": String(length) } : {}),
        },
        body: bytes,
      });
    const png2 = mediaFile("photo.png");
    const target = (await hitRequest("uploadMedia", raw(mediaFile("small.jpg"), "target.jpg"))).body.media as { mediaId: string };
    expect((await hitRequest("replaceMedia", put(target.mediaId, png2, png2.byteLength))).status).toBe(200);
    await hitRequest("replaceMedia", put("md_missing", png2, png2.byteLength));
    const jpg = mediaFile("photo.jpg");
    await hitRequest("replaceMedia", put(target.mediaId, jpg, jpg.byteLength));
    const mp4 = mediaFile("clip.mp4");
    await hitRequest("replaceMedia", put(target.mediaId, mp4, mp4.byteLength));
    const bomb = mediaFile("bomb.png");
    await hitRequest("replaceMedia", put(target.mediaId, bomb, bomb.byteLength));
    await hitRequest("replaceMedia", put(target.mediaId, new Uint8Array(0), 0));
    await hitRequest(
      "replaceMedia",
      put(
        target.mediaId,
        new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(png2);
            c.close();
          },
        }),
      ),
    );
    await hitRequest(
      "replaceMedia",
      put(
        target.mediaId,
        new ReadableStream<Uint8Array>({
          pull(c) {
            c.enqueue(png2.subarray(0, 2000));
            return new Promise(() => undefined);
          },
        }),
        png2.byteLength + 10,
      ),
    );
    await hit("updateMedia", "PATCH", `/sites/${blog.id}/media/${target.mediaId}`, {
      auth: blog.adminKey,
      body: { focal: { x: 0.5, y: 0.1 } },
    });

    // Copy into library: stored (200), not a file (415), too many pixels (413), empty (400), the host failing (502), unknown (404).
    const copyOf = async (url: string) => {
      const made = await call("POST", `/sites/${blog.id}/media`, { auth: blog.adminKey, body: { url } });
      const id = ((await made.json()) as { media: { mediaId: string } }).media.mediaId;
      return hit("copyMedia", "POST", `/sites/${blog.id}/media/${id}/copy`, { auth: blog.adminKey });
    };
    expect((await copyOf(await putPage(mediaFile("small.jpg"), { type: "image/jpeg" }))).status).toBe(200);
    await copyOf(await putPage("<!doctype html><p>a page</p>", { type: "text/html" }));
    await copyOf(await putPage(mediaFile("bomb.png"), { type: "image/png" }));
    await copyOf(await putPage(new Uint8Array(0), { type: "image/png" }));
    await copyOf(await putPage("gone", { status: 404 }));
    await hit("copyMedia", "POST", `/sites/${blog.id}/media/md_missing/copy`, { auth: blog.adminKey });

    const onHost = (url: string, headers: Record<string, string> = {}) =>
      new Request(`${ORIGIN}${new URL(url).pathname.replace(/^\/m\/[^/]+\//, "/_media/")}`, {
        headers: { [SERVICE_TOKEN_HEADER]: blog.token, ...headers },
      });
    const hosted = await hitRequest("getHostMediaFile", onHost(clip.url));
    await hitRequest("getHostMediaFile", onHost(clip.url, { "if-none-match": hosted.headers.get("etag")! }));
    await hitRequest("getHostMediaFile", onHost(clip.url, { range: "bytes=-4" }));
    await hitRequest("getHostMediaFile", onHost(clip.url, { range: "bytes=999999-" }));
    await hitRequest("getHostMediaFile", onHost(clip.url.replace(/\/[0-9a-f]{12}\//, "/000000000000/")));
  });

  it("describes history, the trash and schedules", async () => {
    const site = await newBlog();
    const auth = site.adminKey;
    const base = `/sites/${site.id}`;
    const a = await addItem(site, "posts", { slug: "h1", data: { title: "One" } });
    const item = `${base}/collections/posts/items/${a.id}`;
    await hit("updateItem", "PATCH", item, { auth, body: { slug: "h2", data: { title: "Two" } } });
    const list = await hit("listItemRevisions", "GET", `${item}/revisions?limit=1`, { auth });
    expect(list.body.total).toBe(2);
    await hit("listItemRevisions", "GET", `${base}/collections/posts/items/it_missing/revisions`, { auth });
    const first = `${item}/revisions/${(((await hit("listItemRevisions", "GET", `${item}/revisions`, { auth })).body.revisions as { id: string }[]).at(-1) as { id: string }).id}`;
    await hit("getItemRevision", "GET", first, { auth });
    await hit("getItemRevision", "GET", `${item}/revisions/rv_0`, { auth });
    await hit("restoreItemRevision", "POST", `${first}/restore`, { auth });
    await hit("restoreItemRevision", "POST", `${item}/revisions/nope/restore`, { auth });
    await hit("updateItem", "PATCH", item, { auth, body: { slug: "h3" } });
    await addItem(site, "posts", { slug: "h1", data: { title: "Squatter" } });
    await hit("restoreItemRevision", "POST", `${first}/restore`, { auth });

    const live = await addItem(site, "posts", { slug: "live", data: { title: "Live" }, publish: true });
    const liveItem = `${base}/collections/posts/items/${live.id}`;
    await hit("savePendingChanges", "PUT", `${liveItem}/pending`, { auth, body: { data: { title: "Next" } } });
    await hit("savePendingChanges", "PUT", `${liveItem}/pending`, { auth, body: { slug: "h1" } });
    await hit("savePendingChanges", "PUT", `${base}/collections/posts/items/it_missing/pending`, { auth, body: {} });
    await hit("discardPendingChanges", "DELETE", `${liveItem}/pending`, { auth });
    await hit("discardPendingChanges", "DELETE", `${liveItem}/pending`, { auth });

    const soon = new Date(Date.now() + 3_600_000).toISOString();
    await hit("putItemSchedule", "PUT", `${item}/schedule`, { auth, body: { publishAt: soon, timeZone: "Europe/Paris" } });
    await hit("putItemSchedule", "PUT", `${item}/schedule`, { auth, body: { publishAt: "2001-01-01T00:00:00Z" } });
    await hit("putItemSchedule", "PUT", `${base}/collections/posts/items/it_missing/schedule`, { auth, body: {} });
    const upcoming = await hit("listUpcomingChanges", "GET", `${base}/schedule`, { auth });
    expect(upcoming.body.upcoming).toEqual([expect.objectContaining({ action: "publish", at: soon, timeZone: "Europe/Paris" })]);
    await hit("deleteItemSchedule", "DELETE", `${item}/schedule`, { auth });
    await hit("deleteItemSchedule", "DELETE", `${base}/collections/posts/items/it_missing/schedule`, { auth });

    await hit("deleteItem", "DELETE", item, { auth });
    const trash = await hit("listTrash", "GET", `${base}/trash`, { auth });
    expect(trash.body.total).toBe(1);
    await hit("restoreDeletedItem", "POST", `${base}/trash/${a.id}/restore`, { auth });
    await hit("restoreDeletedItem", "POST", `${base}/trash/${a.id}/restore`, { auth });
    await hit("deleteItem", "DELETE", item, { auth });
    await addItem(site, "posts", { slug: "h3", data: { title: "Taken" } });
    await hit("restoreDeletedItem", "POST", `${base}/trash/${a.id}/restore`, { auth });
  });

  it("describes share links", async () => {
    const site = await newBlog();
    const auth = site.adminKey;
    const a = await addItem(site, "posts", { slug: "draft", data: { title: "Draft" } });
    const links = `/sites/${site.id}/collections/posts/items/${a.id}/preview-links`;
    const created = await hit("createPreviewLink", "POST", links, { auth, body: { label: "Client", maxOpens: 5 } });
    expect(created.status).toBe(201);
    const url = new URL(created.body.url as string);
    await hit("createPreviewLink", "POST", links, { auth, body: { expiresIn: 60 } });
    await hit("createPreviewLink", "POST", `/sites/${site.id}/collections/posts/items/it_missing/preview-links`, { auth, body: {} });
    const locked = await hit("createPreviewLink", "POST", links, { auth, body: { password: "open sesame" } });
    for (let i = 0; i < 18; i++) await hit("createPreviewLink", "POST", links, { auth, body: {} });
    await hit("createPreviewLink", "POST", links, { auth, body: {} });
    await hit("listPreviewLinks", "GET", links, { auth });
    await hit("listPreviewLinks", "GET", `/sites/${site.id}/collections/posts/items/it_missing/preview-links`, { auth });

    const nav = { "sec-fetch-dest": "document", "sec-fetch-mode": "navigate" };
    // The link is /p/#<token>: the page at /p/ posts the token to /p/open.
    expect(url.pathname).toBe("/p/");
    const token = url.hash.slice(1);
    await hit("openShareLinkPage", "GET", "/p/", { headers: nav });
    const form = { ...nav, "content-type": "application/x-www-form-urlencoded" };
    const lockedToken = new URL(locked.body.url as string).hash.slice(1);
    await hit("openShareLink", "POST", "/p/open", { body: `token=${token}`, headers: form });
    await hit("openShareLink", "POST", "/p/open", { body: `token=${token}&format=json`, headers: form });
    await hit("openShareLink", "POST", "/p/open", { body: `token=pv_${site.id}_${"a".repeat(32)}`, headers: form });
    await hit("openShareLink", "POST", "/p/open", {
      body: `token=${token}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    await hit("openShareLink", "POST", "/p/open", {
      body: `token=${lockedToken}&password=wrong`,
      headers: { ...form, "cf-connecting-ip": "192.0.2.77" },
    });
    for (let i = 0; i < 3; i++)
      await hit("openShareLink", "POST", "/p/open", {
        body: `token=${lockedToken}&password=wrong`,
        headers: { ...form, "cf-connecting-ip": "192.0.2.77" },
      });
    await hit("openShareLink", "POST", "/p/open", { body: big(), headers: form });
    // Links made before /p/#, with the token in the path.
    await hit("openPreviewLink", "GET", `/p/${token}`, { headers: nav });
    await hit("openPreviewLink", "GET", `/p/${token}?format=json`, { headers: nav });
    await hit("openPreviewLink", "GET", `/p/pv_${site.id}_${"a".repeat(32)}`, { headers: nav });
    const lockedPath = `/p/${lockedToken}`;
    await hit("unlockPreviewLink", "POST", lockedPath, { body: "password=open%20sesame", headers: form });
    await hit("unlockPreviewLink", "POST", lockedPath, { body: "password=wrong", headers: form });
    await hit("unlockPreviewLink", "POST", lockedPath, { body: "password=wrong", headers: form });
    await hit("unlockPreviewLink", "POST", lockedPath, { body: "password=wrong", headers: form });
    await hit("unlockPreviewLink", "POST", lockedPath, { body: "password=wrong", headers: form });
    await hit("unlockPreviewLink", "POST", `/p/pv_${site.id}_${"a".repeat(32)}`, { body: "password=x", headers: form });
    await hit("unlockPreviewLink", "POST", lockedPath, {
      body: "password=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });

    const id = (created.body.link as { id: string }).id;
    await hit("revokePreviewLink", "DELETE", `${links}/${id}`, { auth });
    await hit("revokePreviewLink", "DELETE", `${links}/pl_missing`, { auth });
  });

  it("describes outbound webhooks and exports", async () => {
    const site = await newBlog("pro");
    const auth = site.adminKey;
    const B = `/sites/${site.id}/webhooks`;
    const url = `${inject("webhookReceiver")}/hooks/contract`;
    await hit("listWebhookEndpoints", "GET", B, { auth });
    const created = await hit("createWebhookEndpoint", "POST", B, { auth, body: { url, events: ["item.created"] } });
    const id = (created.body.endpoint as { id: string }).id;
    for (let i = 1; i < 10; i++)
      await hit("createWebhookEndpoint", "POST", B, { auth, body: { url: `${url}${i}`, events: ["item.deleted"] } });
    await hit("createWebhookEndpoint", "POST", B, { auth, body: { url, events: ["item.created"] } });
    const E = `${B}/${id}`;
    await hit("getWebhookEndpoint", "GET", E, { auth });
    await hit("updateWebhookEndpoint", "PATCH", E, { auth, body: { description: "Contract" } });
    await hit("updateWebhookEndpoint", "PATCH", E, { auth, body: { events: [] } });
    await hit("updateWebhookEndpoint", "PATCH", E, { auth, body: "name=x", headers: { "content-type": "text/plain" } });
    await hit("rotateWebhookEndpointSecret", "POST", `${E}/rotate-secret`, { auth, body: { overlapHours: 1 } });
    await hit("rotateWebhookEndpointSecret", "POST", `${E}/rotate-secret`, { auth, body: { overlapHours: 1000 } });
    await hit("rotateWebhookEndpointSecret", "POST", `${E}/rotate-secret`, { auth, body: "x", headers: { "content-type": "text/plain" } });
    const sent = await hit("sendWebhookTest", "POST", `${E}/test`, { auth });
    const eventId = (sent.body.delivery as { eventId: string }).eventId;
    await hit("listWebhookDeliveries", "GET", `${E}/deliveries`, { auth });
    await hit("listWebhookDeliveries", "GET", `${E}/deliveries?limit=0`, { auth });
    await hit("getWebhookDelivery", "GET", `${E}/deliveries/${eventId}`, { auth });
    await hit("redeliverWebhook", "POST", `${E}/deliveries/${eventId}/redeliver`, { auth });
    await hit("deleteWebhookEndpoint", "DELETE", E, { auth });
    await hit("exportCollectionCsv", "GET", `/sites/${site.id}/collections/posts/export.csv`, { auth });
    await hit("exportSite", "GET", `/sites/${site.id}/export.json`, { auth });
  });

  it("describes imports", async () => {
    const site = await newBlog("pro");
    const auth = site.adminKey;
    const post = (siteId: string, key: string, path: string, body: string | ReadableStream<Uint8Array>, type: string, length?: number) =>
      new Request(`${ORIGIN}/sites/${siteId}${path}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": type,
          ...(length !== undefined ? { "content-length": String(length) } : {}),
        },
        body,
      });
    const raw = (path: string, body: string | ReadableStream<Uint8Array>, type = "text/csv", length?: number) =>
      post(site.id, auth, path, body, type, length);
    // A body that stops arriving: cut after the idle limit (2 s here).
    const stalled = () =>
      new ReadableStream<Uint8Array>({
        pull(c) {
          c.enqueue(new TextEncoder().encode("Name,Slug\n"));
          return new Promise(() => undefined);
        },
      });
    const csv = "Name,Slug,Views\nHello,hello-import,3\nBad,bad-import,x\n";
    const made = await hitRequest("createImport", raw("/collections/posts/imports?name=a.csv", csv));
    expect(made.status).toBe(201);
    const id = (made.body.import as { id: string }).id;
    const mapping = (made.body.import as { mapping: unknown[] }).mapping;
    await hitRequest("createImport", raw("/collections/posts/imports", "Name,Slug\n"));
    await hitRequest("createImport", raw("/collections/nope/imports", csv));
    await hitRequest("createImport", raw("/collections/posts/imports", stalled(), "text/csv", IMPORT_LIMITS.bytes + 1));
    await hitRequest("createImport", raw("/collections/posts/imports", stalled(), "text/csv", 5000));
    const I = `/sites/${site.id}/imports`;
    await hit("listImports", "GET", I, { auth });
    await hit("getImport", "GET", `${I}/${id}`, { auth });
    await hit("getImport", "GET", `${I}/imp_nope`, { auth });
    await hit("startImport", "POST", `${I}/${id}/start`, { auth });
    await hit("startImport", "POST", `${I}/imp_nope/start`, { auth });
    await hit("setImportMapping", "PUT", `${I}/${id}/mapping`, { auth, body: { columns: [{ column: "Nope", use: "ignore" }] } });
    await hit("setImportMapping", "PUT", `${I}/imp_nope/mapping`, { auth, body: { columns: mapping } });
    await hit("setImportMapping", "PUT", `${I}/${id}/mapping`, { auth, body: "x", headers: { "content-type": "text/plain" } });
    await hit("setImportMapping", "PUT", `${I}/${id}/mapping`, { auth, body: { columns: mapping } });
    await importUntil(site, id, ["checked"]);
    await hit("listImportRows", "GET", `${I}/${id}/rows?outcome=error`, { auth });
    await hit("listImportRows", "GET", `${I}/${id}/rows?outcome=nope`, { auth });
    await hit("listImportRows", "GET", `${I}/imp_nope/rows`, { auth });
    await hit("startImport", "POST", `${I}/${id}/start`, { auth });
    await importUntil(site, id, ["done"]);
    await hit("setImportMapping", "PUT", `${I}/${id}/mapping`, { auth, body: { columns: mapping } });
    await hit("getImportReport", "GET", `${I}/${id}/report.csv`, { auth });
    await hit("getImportReport", "GET", `${I}/imp_nope/report.csv`, { auth });
    await hit("cancelImport", "POST", `${I}/${id}/cancel`, { auth });
    await hit("cancelImport", "POST", `${I}/imp_nope/cancel`, { auth });
    await hit("deleteImport", "DELETE", `${I}/${id}`, { auth });
    await hit("deleteImport", "DELETE", `${I}/${id}`, { auth });
    // A larger file's dry run is still running right after it starts: it cannot be deleted, only cancelled.
    const rows = Array.from({ length: 3000 }, (_, i) => `P ${i},p-${i},${i}`).join("\n");
    const big = await hitRequest("createImport", raw("/collections/posts/imports", `Name,Slug,Views\n${rows}\n`));
    const bigId = (big.body.import as { id: string; mapping: unknown[] }).id;
    await hit("setImportMapping", "PUT", `${I}/${bigId}/mapping`, {
      auth,
      body: { columns: (big.body.import as { mapping: unknown[] }).mapping },
    });
    await hit("deleteImport", "DELETE", `${I}/${bigId}`, { auth });
    await hit("cancelImport", "POST", `${I}/${bigId}/cancel`, { auth });
    // A site keeps at most IMPORT_LIMITS.keptImports imports at once: one more waits for a deletion.
    const kept = (await callJson<{ imports: unknown[] }>("GET", I, { auth })).body.imports.length;
    for (let n = kept; n < IMPORT_LIMITS.keptImports; n++)
      expect((await exports.default.fetch(raw(`/collections/posts/imports?name=f${n}.csv`, csv))).status).toBe(201);
    await hitRequest("createImport", raw("/collections/posts/imports?name=more.csv", csv));
    // A site export goes into an empty site only.
    const exported = await (await call("GET", `/sites/${site.id}/export.json`, { auth })).text();
    const empty = await newSite("pro");
    const into = (body: string | ReadableStream<Uint8Array>, length?: number) =>
      post(empty.id, empty.adminKey, "/imports?name=site.json", body, "application/json", length);
    await hitRequest("createSiteImport", into("{}\n"));
    await hitRequest("createSiteImport", into(stalled(), IMPORT_LIMITS.bytes + 1));
    await hitRequest("createSiteImport", into(stalled(), 5000));
    await hitRequest("createSiteImport", post(UNKNOWN_SITE, OPERATOR, "/imports", exported, "application/json"));
    expect((await hitRequest("createSiteImport", into(exported))).status).toBe(201);
    await hitRequest("createSiteImport", raw("/imports", exported, "application/json"));
  });
}
