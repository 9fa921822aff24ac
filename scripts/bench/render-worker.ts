/**
 * Bench-only Worker: the renderer's pure half (compiled template programs +
 * HTMLRewriter streaming), run in a loop inside workerd so the time of a
 * render alone can be measured, without HTTP, SQLite or the cache around it.
 */
import { compilePage } from "../../actors/site/ssr/compile";
import { type PageData, renderDocument, renderWidget } from "../../actors/site/ssr/render";
import type { Collection } from "../../actors/site/storage/rows";
import type { PublicItem } from "../../src/contract/responses";
import { seoFields } from "../../actors/site/seo/fields";
import { itemHead, resolveItemSeo } from "../../actors/site/seo/meta";
import { mappingOf } from "../../actors/site/seo/rich-results/mapping";
import { richResultOf } from "../../actors/site/seo/rich-results/build";
import type { SchemaType } from "../../src/contract/schema-types";
import type { Schema } from "../../src/shared/binding/rules";

interface Job {
  html: string;
  items: PublicItem[];
  schema: Schema;
  base: string;
  batches: number;
  batch: number;
}

export default {
  async fetch(request: Request): Promise<Response> {
    const job = (await request.json()) as Job;
    const page = await compilePage(job.html);
    const ctx = { schema: job.schema, labels: {}, base: job.base };
    const extra = { head: null, pageJsonLd: [] as number[] };
    // The posts' fields and a price, so the same item page can describe a Product as well as an Article.
    const collection = {
      id: "c",
      slug: "posts",
      name: "Posts",
      fields: [
        ...Object.entries(job.schema.posts ?? {}).map(([key, type]) => ({ key, type })),
        { key: "price", type: "decimal", currency: "EUR" },
      ],
    } as Collection;
    // Item pages also build their head (meta, Open Graph, Twitter, JSON-LD) per render, as the site object does.
    const head = (it: PublicItem, type: SchemaType) => {
      const settings = { richResults: { type } };
      const fields = seoFields(collection, settings);
      const seo = resolveItemSeo({ ...it, data: { ...it.data, price: "34.90" } }, fields, settings, {
        canonical: `https://example.com${job.base}${it.slug}`,
        home: "https://example.com/",
        siteName: "Acme",
        list: { name: "Blog", url: `https://example.com${job.base}` },
      });
      return itemHead(
        seo,
        richResultOf({ ...it, data: { ...it.data, price: "34.90" } }, mappingOf(collection.fields, fields, settings), seo).jsonLd,
      );
    };
    const list = (): PageData => ({
      status: 200,
      widgetHtml: page.widgets.map((w) => renderWidget(w, job.items, ctx)),
      item: null,
      ctx,
      ...extra,
    });
    const item = (type: SchemaType) => (): PageData => ({
      status: 200,
      widgetHtml: page.widgets.map((w) => renderWidget(w, job.items.slice(0, 1), ctx)),
      item: job.items[0]!,
      ctx,
      ...extra,
      head: head(job.items[0]!, type),
    });
    const time = async (data: () => PageData) => {
      let bytes = 0;
      for (let i = 0; i < 50; i++) bytes = (await renderDocument(page.html, data()).text()).length;
      const perRender: number[] = [];
      for (let b = 0; b < job.batches; b++) {
        const t = performance.now();
        for (let i = 0; i < job.batch; i++) await renderDocument(page.html, data()).text();
        perRender.push((performance.now() - t) / job.batch);
      }
      return { perRender, bytes };
    };
    return Response.json({ list: await time(list), item: await time(item("Article")), product: await time(item("Product")) });
  },
};
