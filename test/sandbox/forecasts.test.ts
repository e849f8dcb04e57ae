import { datasetFor } from "../../sandbox/data/dataset";
import { boundaryHasForecast } from "../../sandbox/data/forecastModel";
import { ACCOUNT, startTestSandbox, type TestSandbox } from "./support/fixtures";

let t: TestSandbox;
const dataset = datasetFor(1, 20_000);
const account = ACCOUNT.pro;

beforeAll(async () => {
  t = await startTestSandbox();
});

afterAll(async () => {
  await t.sandbox.close();
});

type Entry = { date: string; values: Record<string, number | null> };
type Aggregation = { name: string; field: string; aggregation_type: string };

async function forecast(path: string, json: object): Promise<Entry[]> {
  const response = await t.client.as<{ data: { attributes: { time_series: Entry[] } } }>(
    "demo-pro",
    "POST",
    path,
    { json: { account_id: account, ...json } },
  );
  expect({ status: response.status, body: response.text.slice(0, 200) }).toMatchObject({ status: 200 });
  return response.body.data.attributes.time_series;
}

const withForecast = dataset.properties.find((p) => p.hasForecast && p.askingRent !== null);
const withoutForecast = dataset.properties.find((p) => !p.hasForecast && p.askingRent !== null);
const forecastNoRent = dataset.properties.find((p) => p.hasForecast && p.askingRent === null);
if (!withForecast || !withoutForecast || !forecastNoRent) throw new Error("dataset lacks the forecast cases");
const growth = (name = "g", type = "avg"): Aggregation => ({
  name,
  field: "rent_growth_rate_yoy",
  aggregation_type: type,
});
const occupancy: Aggregation = { name: "occ", field: "occupancy_percent", aggregation_type: "avg" };

/** Within 0.1%: the expected value is computed from growth already rounded to 4 decimals. */
function expectRelativelyClose(actual: number | null | undefined, expected: number): void {
  expect(typeof actual).toBe("number");
  expect(Math.abs((actual as number) - expected) / expected).toBeLessThan(1e-3);
}

function aggregateInTest(values: number[], type: string): number {
  const sorted = [...values].sort((a, b) => a - b);
  const sum = values.reduce((total, value) => total + value, 0);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
  return (
    { avg: sum / values.length, sum, max: Math.max(...values), min: Math.min(...values), median }[type] ?? NaN
  );
}

describe("property forecasts", () => {
  const path = `/v1/properties/${withForecast.id}/forecasts`;

  it("returns 60 monthly points from the first day of the current month", async () => {
    const series = await forecast(path, { aggregations: [growth()] });
    expect(series).toHaveLength(60);
    expect(series[0]?.date).toBe("2026-03-01");
    expect(series[59]?.date).toBe("2031-02-01");
    expect(series.every((entry) => typeof entry.values.g === "number")).toBe(true);
  });

  it.each(["avg", "median", "sum", "max", "min"])(
    "applies %s within quarter and year buckets",
    async (type) => {
      const monthly = await forecast(path, { aggregations: [growth()] });
      for (const interval of ["quarter", "year"] as const) {
        const buckets = await forecast(path, { interval, aggregations: [growth("x", type)] });
        const keyOf = (date: string) =>
          interval === "year"
            ? `${date.slice(0, 4)}-01-01`
            : `${date.slice(0, 5)}${String(Math.floor((Number(date.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, "0")}-01`;
        const expected = new Map<string, number[]>();
        for (const entry of monthly)
          expected.set(keyOf(entry.date), [
            ...(expected.get(keyOf(entry.date)) ?? []),
            entry.values.g as number,
          ]);
        expect(buckets.map((entry) => entry.date)).toEqual([...expected.keys()]);
        for (const entry of buckets) {
          expect(entry.values.x).toBeCloseTo(aggregateInTest(expected.get(entry.date) ?? [], type), 3);
        }
      }
    },
  );

  it("rounds every value to 4 decimal places", async () => {
    const series = await forecast(path, {
      aggregations: [growth("a", "sum"), { ...occupancy, aggregation_type: "median" }],
      interval: "year",
    });
    for (const entry of series) {
      for (const value of Object.values(entry.values))
        expect(Math.abs((value as number) * 1e4 - Math.round((value as number) * 1e4))).toBeLessThan(1e-6);
    }
  });

  it("clamps the window instead of rejecting dates outside it", async () => {
    const full = await forecast(path, { aggregations: [growth()] });
    const clamped = await forecast(path, {
      aggregations: [growth()],
      filters: { collected_at_gte: "2019-01-01", collected_at_lte: "2040-01-01" },
    });
    expect(clamped).toEqual(full);
    const middle = await forecast(path, {
      aggregations: [growth()],
      filters: { collected_at_gte: "2027-01-01", collected_at_lte: "2027-06-30" },
    });
    expect(middle.map((entry) => entry.date)).toEqual([
      "2027-01-01",
      "2027-02-01",
      "2027-03-01",
      "2027-04-01",
      "2027-05-01",
      "2027-06-01",
    ]);
  });

  it("shifts bucket boundaries by offset days", async () => {
    const series = await forecast(path, { aggregations: [growth()], offset: "15d" });
    expect(series.every((entry) => entry.date.endsWith("-16"))).toBe(true);
  });

  it("orders downside <= value <= upside", async () => {
    const series = await forecast(path, {
      aggregations: [
        growth("mid"),
        { name: "low", field: "rent_growth_rate_yoy_downside", aggregation_type: "avg" },
        { name: "high", field: "rent_growth_rate_yoy_upside", aggregation_type: "avg" },
      ],
    });
    for (const { values } of series) {
      expect(values.low as number).toBeLessThan(values.mid as number);
      expect(values.high as number).toBeGreaterThan(values.mid as number);
    }
  });

  it("gives nulls for a property without forecast data", async () => {
    const series = await forecast(`/v1/properties/${withoutForecast.id}/forecasts`, {
      aggregations: [growth(), occupancy],
    });
    expect(series).toHaveLength(60);
    expect(series.every((entry) => entry.values.g === null && entry.values.occ === null)).toBe(true);
  });

  it("rule 4: use_rent_value turns rent growth into dollars from the current rent and leaves occupancy alone", async () => {
    const plain = await forecast(path, { aggregations: [growth(), occupancy] });
    const rent = await forecast(path, { aggregations: [growth(), occupancy], use_rent_value: true });
    expect(rent[0]?.values.g).toBeCloseTo(withForecast.askingRent ?? NaN, 4);
    rent.forEach((entry, month) => {
      expect(entry.values.occ).toBe(plain[month]?.values.occ);
      expectRelativelyClose(
        entry.values.g,
        (withForecast.askingRent ?? NaN) * (1 + (plain[month]?.values.g ?? NaN)) ** (month / 12),
      );
    });
    const noRent = await forecast(`/v1/properties/${forecastNoRent.id}/forecasts`, {
      aggregations: [growth(), occupancy],
      use_rent_value: true,
    });
    expect(noRent.every((entry) => entry.values.g === null && typeof entry.values.occ === "number")).toBe(
      true,
    );
  });

  it("rule 5: use_submarket_fallback fills unavailable rent growth from the submarket, never occupancy", async () => {
    const submarketSeries = await forecast(`/v1/geo_boundary/${withoutForecast.submarketId}/forecasts`, {
      aggregations: [{ name: "g", field: "rent_growth_yoy", aggregation_type: "avg" }],
    });
    const fallback = await forecast(`/v1/properties/${withoutForecast.id}/forecasts`, {
      aggregations: [growth(), occupancy],
      use_submarket_fallback: true,
    });
    expect(fallback.map((entry) => entry.values.g)).toEqual(submarketSeries.map((entry) => entry.values.g));
    expect(fallback.every((entry) => entry.values.occ === null)).toBe(true);
    const own = await forecast(path, { aggregations: [growth()] });
    expect(await forecast(path, { aggregations: [growth()], use_submarket_fallback: true })).toEqual(own);
  });

  it("rule 5 with rule 4: submarket growth applied to the property's rent baseline", async () => {
    const submarketSeries = await forecast(`/v1/geo_boundary/${withoutForecast.submarketId}/forecasts`, {
      aggregations: [{ name: "g", field: "rent_growth_yoy", aggregation_type: "avg" }],
    });
    const both = await forecast(`/v1/properties/${withoutForecast.id}/forecasts`, {
      aggregations: [growth()],
      use_submarket_fallback: true,
      use_rent_value: true,
    });
    both.forEach((entry, month) => {
      expectRelativelyClose(
        entry.values.g,
        (withoutForecast.askingRent ?? NaN) * (1 + (submarketSeries[month]?.values.g ?? NaN)) ** (month / 12),
      );
    });
  });

  it("rejects empty aggregations, unknown fields and malformed filter dates with the spec's messages", async () => {
    const cases: [object, string][] = [
      [{ aggregations: [] }, "aggregations must contain at least one aggregation"],
      [{}, "aggregations must contain at least one aggregation"],
      [
        { aggregations: [growth()], filters: { collected_at_gte: "2026-02-30" } },
        "filters[collected_at_gte] must be a valid ISO 8601 date",
      ],
      [
        { aggregations: [{ name: "x", field: "rent", aggregation_type: "avg" }] },
        "Invalid aggregation field: rent",
      ],
      [{ aggregations: [growth("x", "mode")] }, "Invalid aggregation type: mode"],
    ];
    for (const [json, message] of cases) {
      const response = await t.client.as("demo-pro", "POST", path, {
        json: { account_id: account, ...json },
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ message });
    }
  });
});

describe("boundary forecasts", () => {
  const zipWithout = dataset.geography.boundaries.find(
    (b) => b.geoType === "ZipCode" && !boundaryHasForecast(dataset, b),
  );
  const county = dataset.geography.boundaries.find((b) => b.geoType === "County");
  if (!zipWithout || !county) throw new Error("dataset lacks the boundary cases");
  const fields = [
    "rent_growth_yoy",
    "occupancy",
    "absorption",
    "deliveries",
    "rent_growth_yoy_bed_2_upside",
    "rent_growth_yoy_class_a_downside",
  ];
  const all = fields.map((field) => ({ name: field, field, aggregation_type: "avg" }));

  it("forecasts every boundary field for MSAs", async () => {
    const series = await forecast("/v1/geo_boundary/1000/forecasts", { aggregations: all, interval: "year" });
    expect(series).toHaveLength(6);
    for (const entry of series) for (const field of fields) expect(typeof entry.values[field]).toBe("number");
  });

  it("use_rent_value changes rent growth only", async () => {
    const plain = await forecast("/v1/geo_boundary/1000/forecasts", { aggregations: all });
    const rent = await forecast("/v1/geo_boundary/1000/forecasts", {
      aggregations: all,
      use_rent_value: true,
    });
    rent.forEach((entry, month) => {
      for (const field of ["occupancy", "absorption", "deliveries"])
        expect(entry.values[field]).toBe(plain[month]?.values[field]);
      expect(entry.values.rent_growth_yoy as number).toBeGreaterThan(100);
    });
  });

  it("gives nulls for boundaries without forecasts, and the submarket's growth as fallback for a ZIP code", async () => {
    const countySeries = await forecast(`/v1/geo_boundary/${county.id}/forecasts`, { aggregations: all });
    expect(countySeries.every((entry) => Object.values(entry.values).every((value) => value === null))).toBe(
      true,
    );
    const aggregations = [
      { name: "g", field: "rent_growth_yoy", aggregation_type: "avg" },
      { name: "o", field: "occupancy", aggregation_type: "avg" },
    ];
    const zip = await forecast(`/v1/geo_boundary/${zipWithout.id}/forecasts`, {
      aggregations,
      use_submarket_fallback: true,
    });
    const submarket = await forecast(`/v1/geo_boundary/${zipWithout.submarketId}/forecasts`, {
      aggregations,
    });
    expect(zip.map((entry) => entry.values.g)).toEqual(submarket.map((entry) => entry.values.g));
    expect(zip.every((entry) => entry.values.o === null)).toBe(true);
  });
});
