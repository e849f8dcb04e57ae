/**
 * Forecast rows say which months they cover, and forward periods. The service's window runs from the first day of
 * the current month for 60 months, so with the clock in November a yearly forecast's first row holds November and
 * December only and its last row January to October; the spill says so in covers_from, covers_to and
 * months_covered, checked here against the months of the service's own monthly answer. A forward period
 * (next_12_months, next_3_years, next_5_years, as the vendor's v2 names them) is the monthly forecast combined
 * over its months: the values are recomputed here from the sandbox's monthly answer, and the request count at
 * the sandbox shows it costs what the monthly forecast costs (nothing more when the monthly one was asked).
 */
import { forecast, geoForecast } from "../../src/functions/forecastFunctions";
import { session } from "../../src/session/session";
import { isoDateToSerial } from "../../src/tables/excelDates";
import { monthsCovered } from "../support/forecastMonths";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, UNPACED, type SignedInSandbox } from "../support/signedInSandbox";

/** A November the real date is not: the months come from the injected clocks, not the machine's. */
const NOW = "2029-11-14T15:00:00Z";

type Series = { date: string; values: Record<string, number | null> }[];

let env: SignedInSandbox;
let msaId: number;
let propertyId: number;

beforeAll(async () => {
  env = await startSignedInSandbox("demo-pro", { now: NOW });
  // The data layer's clock is the sandbox's: the forecast's month (its cache key, its window) is the same for both.
  session.useDataOptions({
    ...UNPACED,
    now: () => env.sandbox.clock.now(),
    databaseName: "forecast-periods",
  });
  await env.signInAs("demo-pro");
  const found = await env.raw.post<{ data: { attributes: { id: number } }[] }>("/geo_boundaries/search", {
    account_id: env.accountId,
    query: "Austin",
    geo_type: ["MSA"],
    limit: 1,
  });
  msaId = found.data[0]?.attributes.id as number;
  // A property with a rent forecast in dollars (the sandbox, like the service, has none for some).
  const ids = (
    await env.raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: env.accountId,
      city: "Austin",
      per_page: 20,
    })
  ).data;
  for (const id of ids) {
    propertyId = id;
    const rents = await monthly(`/properties/${id}/forecasts`, "rent_growth_rate_yoy", "avg", true);
    if (rents.some((row) => row.values.rent_growth_rate_yoy !== null)) break;
  }
});

afterAll(() => env.close());

beforeEach(() => session.requireSignedIn().data.clearCache());

async function serviceSeries(
  path: string,
  field: string,
  aggregation: string,
  interval: string,
  extra: Record<string, unknown> = {},
): Promise<Series> {
  const answer = await env.raw.post<{ data: { attributes: { time_series: Series } } }>(path, {
    account_id: env.accountId,
    aggregations: [{ name: field, field, aggregation_type: aggregation }],
    interval,
    ...extra,
  });
  return answer.data.attributes.time_series;
}

const monthly = (path: string, field: string, aggregation: string, useRentValue = false) =>
  serviceSeries(path, field, aggregation, "month", { use_rent_value: useRentValue });

const geoPath = () => `/geo_boundary/${msaId}/forecasts`;

const geo = (
  field: string,
  interval: string,
  options: { aggregation?: string; start?: string; end?: string; rent?: boolean; headers?: string } = {},
) =>
  geoForecast(
    msaId,
    [[field]],
    options.aggregation,
    interval,
    options.start,
    options.end,
    options.rent,
    options.headers,
    fakeInvocation(),
  );

const serial = (iso: string) => isoDateToSerial(iso) as number;

/** What a row covers by the service's monthly answer (test/support/forecastMonths.ts). */
const coveredByService = (months: Series, bucketStart: string, bucketMonths: number) =>
  monthsCovered(
    months.map((row) => row.date),
    bucketStart,
    bucketMonths,
  );

describe("a quarter or a year says which months it covers", () => {
  it("a yearly forecast asked in November: the first row holds Nov-Dec, the last Jan-Oct, the ones between are full", async () => {
    const table = await geo("rent_growth_yoy", "year");
    expect(table[0]).toEqual(["date", "rent_growth_yoy", "covers_from", "covers_to", "months_covered"]);
    const rows = table.slice(1);
    expect(rows[0]?.slice(0, 1).concat(rows[0].slice(2))).toEqual([
      serial("2029-01-01"),
      serial("2029-11-01"),
      serial("2029-12-31"),
      2,
    ]);
    expect(rows[1]?.slice(2)).toEqual([serial("2030-01-01"), serial("2030-12-31"), 12]);
    expect(
      rows
        .at(-1)
        ?.slice(0, 1)
        .concat(rows.at(-1)?.slice(2) ?? []),
    ).toEqual([serial("2034-01-01"), serial("2034-01-01"), serial("2034-10-31"), 10]);

    // Every row, against the months the service's monthly answer has in its year; the values are the service's.
    const months = await monthly(geoPath(), "rent_growth_yoy", "avg");
    const years = await serviceSeries(geoPath(), "rent_growth_yoy", "avg", "year");
    expect(rows.map((row) => row[0])).toEqual(years.map((row) => serial(row.date)));
    expect(rows.map((row) => row[1])).toEqual(years.map((row) => row.values.rent_growth_yoy));
    expect(rows.map((row) => row.slice(2))).toEqual(
      years.map((row) => coveredByService(months, row.date, 12)),
    );

    // A month is one whole point: a monthly forecast keeps its date and field columns only.
    const byMonth = await geo("rent_growth_yoy", "month");
    expect(byMonth[0]).toEqual(["date", "rent_growth_yoy"]);
    expect(byMonth.every((row) => row.length === 2)).toBe(true);
  });

  it("a quarterly forecast: the first quarter holds two months, the last one, with names headers saying of how many", async () => {
    const table = await geo("occupancy", "quarter", { headers: "names" });
    expect(table[0]).toEqual(["Date", "Occupancy", "Covers from", "Covers to", "Months covered (of 3)"]);
    const rows = table.slice(1);
    expect(rows[0]?.slice(2)).toEqual([serial("2029-11-01"), serial("2029-12-31"), 2]);
    expect(rows[1]?.slice(2)).toEqual([serial("2030-01-01"), serial("2030-03-31"), 3]);
    expect(
      rows
        .at(-1)
        ?.slice(0, 1)
        .concat(rows.at(-1)?.slice(2) ?? []),
    ).toEqual([serial("2034-10-01"), serial("2034-10-01"), serial("2034-10-31"), 1]);
    const months = await monthly(geoPath(), "occupancy", "avg");
    const quarters = await serviceSeries(geoPath(), "occupancy", "avg", "quarter");
    expect(rows.map((row) => row.slice(2))).toEqual(
      quarters.map((row) => coveredByService(months, row.date, 3)),
    );
  });

  it("narrowed by start and end, a year covers the months the dates leave it", async () => {
    const dates = { start: "2030-02-15", end: "2031-05-20" };
    const rows = (await geo("rent_growth_yoy", "year", dates)).slice(1);
    const filters = { filters: { collected_at_gte: dates.start, collected_at_lte: dates.end } };
    const months = await serviceSeries(geoPath(), "rent_growth_yoy", "avg", "month", filters);
    expect(rows.map((row) => row.slice(2))).toEqual([
      [serial("2030-03-01"), serial("2030-12-31"), 10],
      [serial("2031-01-01"), serial("2031-05-31"), 5],
    ]);
    expect(rows.map((row) => row.slice(2))).toEqual(
      ["2030-01-01", "2031-01-01"].map((year) => coveredByService(months, year, 12)),
    );
  });
});

describe("forward periods from the current month", () => {
  const values = (series: Series, field: string, months: number) =>
    series.slice(0, months).map((row) => row.values[field] as number);
  const combine: Record<string, (numbers: number[]) => number> = {
    avg: (numbers) => numbers.reduce((sum, value) => sum + value, 0) / numbers.length,
    sum: (numbers) => numbers.reduce((sum, value) => sum + value, 0),
    min: (numbers) => Math.min(...numbers),
    max: (numbers) => Math.max(...numbers),
  };

  it("next_12_months is the avg, sum, min or max of the 12 monthly values, one row covering them", async () => {
    const months = values(await monthly(geoPath(), "rent_growth_yoy", "avg"), "rent_growth_yoy", 12);
    expect(months).toHaveLength(12);
    for (const aggregation of ["avg", "sum", "min", "max"]) {
      const monthsOf = values(
        await monthly(geoPath(), "rent_growth_yoy", aggregation),
        "rent_growth_yoy",
        12,
      );
      const table = await geo("rent_growth_yoy", "next_12_months", { aggregation });
      expect(table[0]).toEqual(["date", "rent_growth_yoy", "covers_from", "covers_to", "months_covered"]);
      expect(table).toHaveLength(2);
      const [date, value, ...covers] = table[1] as unknown[];
      expect(date).toBe(serial("2029-11-01"));
      expect(value).toBeCloseTo((combine[aggregation] as (n: number[]) => number)(monthsOf), 10);
      expect(covers).toEqual([serial("2029-11-01"), serial("2030-10-31"), 12]);
    }
  });

  it("next_3_years and next_5_years cover 36 and 60 months; a flow adds up over them when no aggregation is named", async () => {
    const deliveries = await monthly(geoPath(), "deliveries", "sum");
    for (const [period, count, to] of [
      ["next_3_years", 36, "2032-10-31"],
      ["next_5_years", 60, "2034-10-31"],
    ] as const) {
      const [, value, ...covers] = (await geo("deliveries", period))[1] as unknown[];
      expect(value).toBeCloseTo(combine.sum?.(values(deliveries, "deliveries", count)) as number, 6);
      expect(covers).toEqual([serial("2029-11-01"), serial(to), count]);
    }
    const fiveYears = await geo("deliveries", "next_5_years", { headers: "names" });
    expect(fiveYears[0]?.at(-1)).toBe("Months covered (of 60)");
  });

  it("works in dollars (use_rent_value) and in the cell's units (occupancy points as a fraction)", async () => {
    const rents = await monthly(geoPath(), "rent_growth_yoy", "avg", true);
    const [, rent] = (await geo("rent_growth_yoy", "next_12_months", { rent: true }))[1] as unknown[];
    expect(rent).toBeGreaterThan(100);
    expect(rent).toBeCloseTo(combine.avg?.(values(rents, "rent_growth_yoy", 12)) as number, 6);

    const points = await monthly(geoPath(), "occupancy", "avg");
    const [, occupancy] = (await geo("occupancy", "next_12_months"))[1] as unknown[];
    expect(occupancy).toBeCloseTo((combine.avg?.(values(points, "occupancy", 12)) as number) / 100, 10);

    const path = `/properties/${propertyId}/forecasts`;
    const propertyRents = await monthly(path, "rent_growth_rate_yoy", "max", true);
    const table = await forecast(
      propertyId,
      [["rent_growth_rate_yoy"]],
      "max",
      "next_3_years",
      undefined,
      undefined,
      true,
      undefined,
      undefined,
      fakeInvocation(),
    );
    expect(table[0]?.[1]).toBe("forecast rent (rent_growth_rate_yoy)");
    expect(table[1]?.[1]).toBeCloseTo(
      combine.max?.(values(propertyRents, "rent_growth_rate_yoy", 36)) as number,
      6,
    );
  });

  it("refuses a median with #VALUE!, saying why and what to use instead, and dates it cannot take", async () => {
    await expect(geo("rent_growth_yoy", "next_12_months", { aggregation: "median" })).rejects.toMatchObject({
      code: "#VALUE!",
      message: expect.stringMatching(
        /median cannot be made for next_12_months.*median of monthly medians is not the period's.*Use avg, sum, min, max/,
      ),
    });
    await expect(geo("rent_growth_yoy", "next_5_years", { start: "2030-01-01" })).rejects.toMatchObject({
      code: "#VALUE!",
      message: expect.stringContaining("next_5_years runs from this month's first day"),
    });
  });

  it("costs one request, as the monthly forecast does, and none after the monthly forecast", async () => {
    const counted = "/v1/geo_boundary/:geo_boundary_id/forecasts";
    const requestsFor = async (run: () => Promise<unknown>) => {
      const before = env.sandbox.counters.get(counted);
      await run();
      return env.sandbox.counters.get(counted) - before;
    };
    const monthlyCost = await requestsFor(() => geo("absorption", "month"));
    await session.requireSignedIn().data.clearCache();
    const forwardCost = await requestsFor(() => geo("absorption", "next_12_months"));
    expect(monthlyCost).toBe(1);
    expect(forwardCost).toBe(monthlyCost);

    await session.requireSignedIn().data.clearCache();
    expect(await requestsFor(() => geo("occupancy", "month"))).toBe(1);
    expect(await requestsFor(() => geo("occupancy", "next_3_years"))).toBe(0);
    expect(await requestsFor(() => geo("occupancy", "next_5_years"))).toBe(0);
  });
});
