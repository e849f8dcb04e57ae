import { isKeyOf, kindOfKey, requestKey, type RequestIdentity } from "../../src/data/cacheKey";

const base: RequestIdentity = {
  kind: "forecast",
  caller: "demo-pro",
  accountId: 100,
  endpoint: "/properties/forecasts",
  params: { ids: [1, 2], interval: "month" },
  period: "2026-03",
};

describe("requestKey", () => {
  it("tells apart requests that differ in any one part", () => {
    const variants: Partial<RequestIdentity>[] = [
      { kind: "property" },
      { caller: "demo-proplus" },
      { accountId: 102 },
      { accountId: undefined },
      { endpoint: "/markets/forecasts" },
      { params: { ids: [1, 2], interval: "quarter" } },
      { params: { ids: [2, 1], interval: "month" } },
      { period: "2026-04" },
      { period: undefined },
    ];
    const keys = new Set([
      requestKey(base),
      ...variants.map((variant) => requestKey({ ...base, ...variant })),
    ]);
    expect(keys.size).toBe(variants.length + 1);
  });

  it("is the same for the same request however its parameters are ordered", () => {
    expect(requestKey({ ...base, params: { interval: "month", ids: [1, 2], absent: undefined } })).toBe(
      requestKey(base),
    );
  });

  it("starts with the kind, and is a caller's only when that caller is its first part", () => {
    const key = requestKey(base);
    expect(kindOfKey(key)).toBe("forecast");
    expect(isKeyOf(key, "demo-pro")).toBe(true);
    expect(isKeyOf(key, "demo")).toBe(false);
    // A caller named in the parameters does not make the key theirs.
    const named = requestKey({ ...base, caller: "demo-base", params: { owner: "demo-pro" } });
    expect(isKeyOf(named, "demo-pro")).toBe(false);
    expect(isKeyOf(named, "demo-base")).toBe(true);
  });
});
