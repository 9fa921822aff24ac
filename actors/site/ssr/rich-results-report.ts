/**
 * The SEO Engine screen's rich results card: the captured collection's schema type, the field
 * behind each property, and which published items are eligible for the rich result, with the
 * properties each lacks. The newest REPORT_ITEMS published items are checked, each exactly as
 * its page renders it, so one request costs a bounded amount of work at any size.
 */
import type { z } from "zod";
import { ApiError } from "../../../src/contract/errors";
import type { RichResultsReport } from "../../../src/contract/responses";
import { SCHEMA_TYPES, type SchemaType } from "../../../src/contract/schema-types";
import { itemTitleOf } from "../../../src/contract/item-title";
import type { PublicItem } from "../../../src/contract/responses";
import type { SiteContext } from "../context";
import { publicBase } from "../hostnames/public-base";
import { readItemForPreview, readPublishedPage } from "../reads/published-list";
import { seoFields } from "../seo/fields";
import { mappingOf, proposeType } from "../seo/rich-results/mapping";
import { SCHEMA_PROPERTIES } from "../seo/rich-results/spec";
import type { StoredCapture } from "./capture-store";
import { itemSeo } from "./render";

/** How many of the newest published items one report checks. */
export const REPORT_ITEMS = 500;
/** How many items that are not eligible it names. */
const NAMED_ITEMS = 50;
const PAGE = 100;

export function richResultsReport(s: SiteContext, capture: StoredCapture, itemId: string | null = null): z.infer<typeof RichResultsReport> {
  const collection = s.collections().find((c) => c.id === capture.collectionId);
  if (!collection) throw new ApiError("not_found", "The captured collection no longer exists; capture the page again.");
  const settings = capture.extra.seo ?? {};
  const mapping = mappingOf(collection.fields, seoFields(collection, settings), settings);
  const canonical = publicBase(s, capture);
  const counts = new Map<string, number>();
  const notEligible: z.infer<typeof RichResultsReport>["notEligible"] = [];
  let checked = 0;
  let eligible = 0;
  let expired = 0;
  let total = 0;
  const titleOf = (item: PublicItem) => itemTitleOf(collection.fields, item.data) ?? item.slug;
  for (let page = 1; checked < REPORT_ITEMS; page++) {
    const read = readPublishedPage(s, collection, new URLSearchParams({ page: String(page), limit: String(PAGE) }));
    total = read.total;
    for (const item of read.items) {
      const { rich } = itemSeo(s, capture, collection, item, { canonical }, mapping);
      checked++;
      if (rich.expired) expired++;
      if (rich.missing.length === 0 && !rich.expired) eligible++;
      else if (notEligible.length < NAMED_ITEMS)
        notEligible.push({ id: item.id, slug: item.slug, title: titleOf(item), missing: rich.missing, expired: rich.expired });
      for (const p of [...rich.missing, ...rich.missingRecommended]) counts.set(p, (counts.get(p) ?? 0) + 1);
    }
    if (read.items.length < PAGE) break;
  }
  // The crawler preview's item, drafts included, checked exactly as its preview renders it.
  const shown = itemId === null ? null : readItemForPreview(s, collection.id, itemId);
  if (itemId !== null && !shown) throw new ApiError("not_found", "No such item in the captured collection.");
  const one = shown && itemSeo(s, capture, collection, shown, { canonical }, mapping).rich;
  return {
    collection: collection.slug,
    type: mapping.type,
    chosen: mapping.chosen,
    proposedType: proposeType(collection.fields),
    types: [...SCHEMA_TYPES],
    properties: SCHEMA_PROPERTIES[mapping.type].map((p) => ({
      path: p.path,
      label: p.label,
      need: p.need,
      accepts: [...p.accepts],
      field: mapping.fields[p.path]?.key ?? null,
      automatic: p.automatic !== undefined,
      missingIn: counts.get(p.path) ?? 0,
    })),
    items: { total, checked, eligible, expired },
    notEligible,
    expiredNoindex: settings.richResults?.expiredNoindex === true,
    ...(shown && one
      ? {
          item: {
            id: shown.id,
            slug: shown.slug,
            title: titleOf(shown),
            missing: one.missing,
            missingRecommended: one.missingRecommended,
            expired: one.expired,
            eligible: one.missing.length === 0 && !one.expired && mapping.type !== "none",
          },
        }
      : {}),
  };
}

/** The owner's choice of type and fields, checked against the collection: an unknown property or field is a 400. */
export function checkRichResults(
  fields: readonly { key: string; type: string }[],
  input: { type: SchemaType; fields?: Record<string, string> | undefined },
): void {
  const specs = SCHEMA_PROPERTIES[input.type];
  for (const [path, key] of Object.entries(input.fields ?? {})) {
    const spec = specs.find((p) => p.path === path);
    if (!spec) throw new ApiError("bad_request", `${input.type} has no property "${path}".`, { path: `fields.${path}` });
    if (key === "") continue;
    const f = fields.find((x) => x.key === key);
    if (!f) throw new ApiError("bad_request", `No field "${key}" in the captured collection.`, { path: `fields.${path}` });
    if (!(spec.accepts as readonly string[]).includes(f.type))
      throw new ApiError("bad_request", `"${key}" is a ${f.type} field; ${spec.label} takes ${spec.accepts.join(" or ")}.`, {
        path: `fields.${path}`,
      });
  }
}
