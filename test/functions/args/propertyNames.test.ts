/**
 * A property typed by name resolves to the one record named exactly so, in any case, among the names the
 * lookup found containing it. The data layer here is a stand-in answering from a fixed list: the resolution
 * is what is tested, not the service.
 */
import { readPropertyText } from "../../../src/functions/args/propertyNames";
import { firstArgumentOf, resolveProperty } from "../../../src/functions/args/nameResolver";
import type { CellContext } from "../../../src/functions/cellContext";
import type { PropertyAttributes } from "../../../src/data/dataLayer";

const RECORDS = new Map<number, Record<string, string>>([
  [101, { property_name: "Mill Creek Village", address: "10 Oak St", city: "Austin", state: "TX" }],
  [102, { property_name: "Mill Creek", address: "1200 Elm St", city: "Austin", state: "TX" }],
  [103, { property_name: "Old Mill Creek", address: "5 Pine Rd", city: "Dallas", state: "TX" }],
]);

function contextFinding(ids: number[]): { context: CellContext; lookups: unknown[] } {
  const lookups: unknown[] = [];
  const data = {
    read: async (_operation: unknown, query: unknown) => {
      lookups.push(query);
      return { value: { data: ids, pagination: { total_count: ids.length } } };
    },
    readMany: async (_operation: unknown, _params: unknown, wanted: number[]) => ({
      records: new Map(wanted.map((id) => [id, { value: RECORDS.get(id) }])),
    }),
  };
  const call = { accountId: 1, signal: new AbortController().signal };
  return { context: { data, accountId: 1, call } as unknown as CellContext, lookups };
}

/** A record with only the members a name match reads. */
const record = (members: Record<string, string>) => members as unknown as PropertyAttributes;

const site = firstArgumentOf("property", "RENT.PROPERTY");

describe("resolveProperty by name", () => {
  it("resolves a name typed in another case to its one exact match among names that contain it", async () => {
    for (const typed of ["mill creek", "MILL CREEK", "  Mill   creek "]) {
      const { context } = contextFinding([101, 102, 103]);
      await expect(resolveProperty(typed, context, site)).resolves.toBe(102);
    }
  });

  it("fails #N/A listing the candidates when none is named exactly so", async () => {
    const { context } = contextFinding([101, 103]);
    await expect(resolveProperty("mill creek", context, site)).rejects.toMatchObject({
      kind: "not_found",
      message: expect.stringMatching(
        /^No property named "mill creek"\. 2 contain it: 101 Mill Creek Village/,
      ),
    });
  });
});

describe("readPropertyText", () => {
  it("matches a record named as typed in any case, in the city and state typed in any case", () => {
    const typed = readPropertyText("MILL CREEK, austin, tx");
    expect(typed.filters).toEqual({ property_name: "MILL CREEK", city: "austin", state: "TX" });
    expect(typed.isExactly(record({ property_name: "Mill Creek", city: "Austin", state: "TX" }))).toBe(true);
    expect(typed.isExactly(record({ property_name: "Mill Creek", city: "Dallas", state: "TX" }))).toBe(false);
    expect(
      typed.isExactly(record({ property_name: "Mill Creek Village", city: "Austin", state: "TX" })),
    ).toBe(false);
    expect(typed.isExactly(undefined)).toBe(false);
  });

  it("matches a street address in any case by the record's address", () => {
    const typed = readPropertyText("1200 ELM ST");
    expect(typed.filters).toEqual({ address: "1200 ELM ST" });
    expect(typed.isExactly(record({ property_name: "Mill Creek", address: "1200 Elm St" }))).toBe(true);
    expect(typed.isExactly(record({ property_name: "1200 Elm St", address: "12 Elm St" }))).toBe(false);
  });

  it("takes a name with commas of its own whole, past a city and a state: no city or state is read from it", () => {
    const named = "Smith, Jones & Partners Lofts, Austin, TX";
    const typed = readPropertyText(named);
    expect(typed.filters).toEqual({ property_name: named });
    expect(typed.isExactly(record({ property_name: named, city: "Dallas", state: "OK" }))).toBe(true);
  });
});
