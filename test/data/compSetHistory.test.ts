import { CompSetHistory } from "../../src/data/history/compSetHistory";
import { dayOfIso } from "../../src/data/history/historyDays";
import { ResponseCache } from "../../src/data/responseCache";
import type { DataLayer } from "../../src/data/dataLayer";

const NOW = Date.parse("2026-03-15T12:00:00Z");

/** A data layer of a memory cache and a floor plans read that answers per account, and counts its reads. */
function dataLayer() {
  const reads: { accountId: number; filters: Record<string, string> }[] = [];
  const data = {
    cache: new ResponseCache({ now: () => NOW }),
    read: async (
      _operation: unknown,
      params: { compSetId: number; filters: Record<string, string> },
      options: { accountId: number },
    ) => {
      reads.push({ accountId: options.accountId, filters: params.filters });
      return {
        value: [
          {
            collected_at: params.filters["filter[collected_at_gte]"],
            property_id: 100001,
            property_name: `Seen by account ${options.accountId}`,
            name: "A1",
            bedroom_count: 1,
            bathroom_count: 1,
            asking_rent: 1500 + options.accountId,
            net_effective_rent: 1450,
          },
        ],
      };
    },
  };
  return { data: data as unknown as DataLayer, reads };
}

const range = { first: dayOfIso("2026-02-01"), last: dayOfIso("2026-02-03") };

describe("CompSetHistory", () => {
  it("keeps each account's days apart: another account's same comp set and days are read for it", async () => {
    const { data, reads } = dataLayer();
    const history = new CompSetHistory(data, "person-1", () => NOW);

    const first = await history.days(7, range, { accountId: 11 });
    const second = await history.days(7, range, { accountId: 22 });

    expect(reads.map((read) => read.accountId)).toEqual([11, 22]);
    expect(first.get("2026-02-01")?.[0]).toMatchObject({
      property_name: "Seen by account 11",
      asking_rent: 1511,
    });
    expect(second.get("2026-02-01")?.[0]).toMatchObject({
      property_name: "Seen by account 22",
      asking_rent: 1522,
    });
  });

  it("answers the same account's days again from the cache, and asks only for the days it never had", async () => {
    const { data, reads } = dataLayer();
    const history = new CompSetHistory(data, "person-1", () => NOW);

    await history.days(7, range, { accountId: 11 });
    const again = await history.days(7, range, { accountId: 11 });
    expect(reads).toHaveLength(1);
    // Days with no collection are known to have none: an empty list, not a new request.
    expect(again.get("2026-02-02")).toEqual([]);

    await history.days(7, { first: range.first, last: dayOfIso("2026-02-05") }, { accountId: 11 });
    expect(reads.map((read) => read.filters)).toEqual([
      { "filter[collected_at_gte]": "2026-02-01", "filter[collected_at_lte]": "2026-02-03" },
      { "filter[collected_at_gte]": "2026-02-04", "filter[collected_at_lte]": "2026-02-05" },
    ]);
  });

  it("keeps another comp set's days apart", async () => {
    const { data, reads } = dataLayer();
    const history = new CompSetHistory(data, "person-1", () => NOW);
    await history.days(7, range, { accountId: 11 });
    await history.days(8, range, { accountId: 11 });
    expect(reads).toHaveLength(2);
  });
});
