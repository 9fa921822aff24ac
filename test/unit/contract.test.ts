import { describe, expect, it } from "vitest";
import { ApiError, errorBody } from "../../src/contract/errors";
import { collectionInputSchema } from "../../src/contract/fields";
import { entitlements, planRequired } from "../../src/contract/plans";

describe("the contract in plain Node", () => {
  it("builds the one error envelope and keeps it small", () => {
    expect(errorBody("not_found", "No such item.")).toEqual({ error: { code: "not_found", message: "No such item." } });
    const big = errorBody("bad_request", "m".repeat(5000), { value: "v".repeat(5000) }).error;
    expect((big.message as string).length).toBeLessThanOrEqual(1001);
    expect(((big.details as { value: string }).value as string).length).toBeLessThanOrEqual(301);
  });

  it("says which plan a missing feature needs", () => {
    const e = planRequired("serverRendering");
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(403);
    expect(e.details).toEqual({ feature: "serverRendering", requiredPlan: "seo_engine" });
    expect(entitlements("starter").features).toEqual({ advancedLists: false, serverRendering: false });
    expect(entitlements("pro").flags.aiSearch).toBe(true);
  });

  it("refuses duplicate, reserved and badly typed fields", () => {
    const r = collectionInputSchema.safeParse({
      fields: [
        { key: "title", type: "text" },
        { key: "title", type: "text" },
        { key: "slug", type: "text" },
        { key: "body", type: "richText", indexed: true },
        { key: "author", type: "reference" },
      ],
    });
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["fields.1.key", "fields.2.key", "fields.3.indexed", "fields.4.collection"]));
  });
});
