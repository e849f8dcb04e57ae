import { isoToSerial } from "../../src/tables/excelDates";
import { forecast, geoForecast } from "../../src/functions/forecastFunctions";
import { lookup, properties, property } from "../../src/functions/propertyFunctions";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

interface Envelope<T> {
  id: string;
  attributes: T;
}
type Attributes = Record<string, unknown>;
type Series = { date: string; values: Record<string, number | null> }[];

let env: SignedInSandbox;
let ids: number[];
let msaId: number;

const details = async (list: number[]) =>
  (
    await env.raw.get<{ data: Envelope<Attributes>[] }>("/properties/bulk_details", {
      account_id: env.accountId,
      property_ids: list.join(","),
    })
  ).data;

beforeAll(async () => {
  env = await startSignedInSandbox("demo-proplus");
  ids = (
    await env.raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: env.accountId,
      city: "Austin",
      per_page: 6,
    })
  ).data;
  const msa = await env.raw.post<{ data: Envelope<{ id: number }>[] }>("/geo_boundaries/search", {
    account_id: env.accountId,
    query: "Austin",
    geo_type: "MSA",
    limit: 1,
  });
  msaId = msa.data[0]?.attributes.id as number;
});

afterAll(() => env.close());

describe("RENT.PROPERTY", () => {
  it("gives one field of one property as the service has it", async () => {
    const [record] = await details([ids[0] as number]);
    await expect(property([[ids[0]]], [["asking_rent"]], fakeInvocation())).resolves.toEqual([
      [record?.attributes.asking_rent ?? ""],
    ]);
    await expect(property([[ids[0]]], [["collected_at"]], fakeInvocation())).resolves.toEqual([
      [isoToSerial(record?.attributes.collected_at as string)],
    ]);
  });

  it("spills ids down and fields across from one bulk details request", async () => {
    const fields = ["property_name", "unit_count", "year_built", "asking_rent"];
    const records = await details(ids);
    const before = env.sandbox.counters.get("/v1/properties/bulk_details");
    const block = await property(
      ids.map((id) => [id]),
      [fields],
      fakeInvocation(),
    );
    expect(env.sandbox.counters.get("/v1/properties/bulk_details") - before).toBe(1);
    expect(block).toEqual(
      ids.map((id) => {
        const attributes = records.find((record) => Number(record.id) === id)?.attributes ?? {};
        return fields.map((field) => attributes[field] ?? "");
      }),
    );
  });

  it("reads comma-separated fields in one cell as a row of fields, like a range of them", async () => {
    const column = ids.map((id) => [id]);
    const fromText = await property(column, [["asking_rent, unit_count,year_built"]], fakeInvocation());
    const fromRange = await property(column, [["asking_rent", "unit_count", "year_built"]], fakeInvocation());
    expect(fromText).toEqual(fromRange);
    expect(fromText[0]).toHaveLength(3);
  });

  it("puts a missing property's error in its own cell of a block", async () => {
    const block = await property([[ids[0]], [99_999_999]], [["unit_count"]], fakeInvocation());
    expect(typeof block[0]?.[0]).toBe("number");
    expect(block[1]?.[0]).toMatchObject({ code: "#N/A" });
  });

  it("names an unknown field and suggests the right one", async () => {
    await expect(property([[ids[0]]], [["asking_rnt"]], fakeInvocation())).rejects.toMatchObject({
      code: "#VALUE!",
      message: 'Unknown property field "asking_rnt". Did you mean "asking_rent"?',
    });
    await expect(property([[1.5]], [["asking_rent"]], fakeInvocation())).rejects.toMatchObject({
      code: "#VALUE!",
      message: expect.stringContaining("property_id must be a positive whole number"),
    });
  });

  it("takes the words of the one vocabulary: the export's avg_rent is asking_rent, occupancy names both with their meanings", async () => {
    const [byName] = await property(
      [[ids[0]]],
      [["unit_count", "asking_rent", "leased_percent"]],
      fakeInvocation(),
    );
    const [bySynonym] = await property(
      [[ids[0]]],
      [["units", "avg_rent", "leased occupancy"]],
      fakeInvocation(),
    );
    expect(typeof byName?.[0]).toBe("number");
    expect(bySynonym).toEqual(byName);
    await expect(property([[ids[0]]], [["occupancy"]], fakeInvocation())).rejects.toMatchObject({
      code: "#VALUE!",
      message:
        '"occupancy" names 2 fields: "advertised_occupancy_percent" (advertised occupancy: the share of units not advertised as available) or "leased_percent" (leased occupancy: the share of units under lease, the occupancy the narrative reports). Name one.',
    });
    // A word of another record's vocabulary, mistyped, is suggested as this record's field.
    await expect(property([[ids[0]]], [["avg_rnt"]], fakeInvocation())).rejects.toMatchObject({
      code: "#VALUE!",
      message: 'Unknown property field "avg_rnt". Did you mean "asking_rent"?',
    });
  });

  it("says ownership fields need pro-plus to a pro client", async () => {
    await env.signInAs("demo-pro");
    try {
      await expect(
        property([[ids[0]]], [["ownership_company_1_name"]], fakeInvocation()),
      ).rejects.toMatchObject({
        code: "#N/A",
        message: "Not in your plan (pro-plus): ownership_company_1_name needs the pro-plus tier.",
      });
    } finally {
      await env.signInAs("demo-proplus");
    }
  });

  it("says bulk details are not in the base plan", async () => {
    await env.signInAs("demo-base");
    try {
      await expect(property([[ids[0]]], [["asking_rent"]], fakeInvocation())).rejects.toMatchObject({
        code: "#N/A",
        message: expect.stringMatching(
          /^Not in your plan \(pro\): Details of many properties needs the pro tier/,
        ),
      });
    } finally {
      await env.signInAs("demo-proplus");
    }
  });
});

describe("RENT.PROPERTIES", () => {
  it("lists the properties of a boundary with the chosen fields", async () => {
    const raw = await env.raw.post<{ data: Envelope<Attributes>[] }>("/geo_boundaries/properties", {
      account_id: env.accountId,
      geo_boundary_ids: [msaId],
      per_page: 40,
    });
    const table = await properties(
      [[msaId]],
      [["property_id, asking_rent"]],
      [["max_results=40"]],
      undefined,
      fakeInvocation(),
    );
    expect(table[0]).toEqual(["property_id", "asking_rent"]);
    expect(table.slice(1)).toEqual(
      raw.data.map((entry) => [entry.attributes.property_id, entry.attributes.asking_rent ?? ""]),
    );
  });

  it("takes a GeoJSON polygon and rejects other geometry", async () => {
    const square = {
      type: "Polygon",
      coordinates: [
        [
          [-98, 30],
          [-97.5, 30],
          [-97.5, 30.5],
          [-98, 30.5],
          [-98, 30],
        ],
      ],
    };
    const raw = await env.raw.post<{ data: Envelope<Attributes>[] }>("/geo_boundaries/properties", {
      account_id: env.accountId,
      geometry: square,
      per_page: 500,
    });
    const table = await properties(
      [[JSON.stringify(square)]],
      [["property_id"]],
      undefined,
      undefined,
      fakeInvocation(),
    );
    expect(table.slice(1).map((row) => row[0])).toEqual(
      raw.data.map((entry) => entry.attributes.property_id),
    );
    await expect(
      properties(
        [['{"type":"Point","coordinates":[1,2]}']],
        undefined,
        undefined,
        undefined,
        fakeInvocation(),
      ),
    ).rejects.toMatchObject({ code: "#VALUE!", message: expect.stringContaining("Polygon") });
  });
});

describe("RENT.LOOKUP", () => {
  it("collects the ids of every page up to max_results", async () => {
    const all: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const raw = await env.raw.get<{ data: number[] }>("/properties/lookup", {
        account_id: env.accountId,
        city: "Austin",
        per_page: 200,
        page,
      });
      all.push(...raw.data);
    }
    const table = await lookup([["city=Austin; max_results=250"]], fakeInvocation());
    expect(table).toEqual([["property_id"], ...all.slice(0, 250).map((id) => [id])]);
    await expect(lookup([["latitude=30.2"]], fakeInvocation())).rejects.toMatchObject({ code: "#VALUE!" });
    await expect(lookup([["city=Nowhereville"]], fakeInvocation())).rejects.toMatchObject({
      code: "#N/A",
      message: "No property matches these filters.",
    });
  });

  it("sends each option as the contract types it: a state in capitals, a class by its name, a count", async () => {
    const raw = await env.raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: env.accountId,
      city: "Austin",
      state: "TX",
      property_class: "A",
      unit_count_gte: 300,
      per_page: 200,
    });
    // Fewer than a page: every match is in the raw answer.
    expect(raw.data.length).toBeGreaterThan(0);
    expect(raw.data.length).toBeLessThan(200);
    const table = await lookup(
      [["city=Austin; state=tx; property_class=a; unit_count_gte=300"]],
      fakeInvocation(),
    );
    expect(table).toEqual([["property_id"], ...raw.data.map((id) => [id])]);
  });
});

describe("RENT.FORECAST and RENT.GEOFORECAST", () => {
  const post = (path: string, body: Record<string, unknown>) =>
    env.raw.post<{ data: { attributes: { time_series: Series } } }>(path, {
      account_id: env.accountId,
      ...body,
    });

  it("spills a date column of Excel serials and one column per field", async () => {
    const aggregations = ["rent_growth_rate_yoy", "occupancy_percent"].map((field) => ({
      name: field,
      field,
      aggregation_type: "avg",
    }));
    let propertyId = ids[0] as number;
    let raw: Series = [];
    for (const id of ids) {
      raw = (await post(`/properties/${id}/forecasts`, { aggregations, interval: "quarter" })).data.attributes
        .time_series;
      propertyId = id;
      if (raw.some((row) => row.values.rent_growth_rate_yoy !== null)) break;
    }
    const table = await forecast(
      propertyId,
      [["rent_growth_rate_yoy, occupancy_percent"]],
      "avg",
      "quarter",
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      fakeInvocation(),
    );
    // A quarter's spill ends with the months each row covers (forecastPeriods.test.ts checks those).
    expect(table[0]).toEqual([
      "date",
      "rent_growth_rate_yoy",
      "occupancy_percent",
      "covers_from",
      "covers_to",
      "months_covered",
    ]);
    expect(table.slice(1).map((row) => row.slice(0, 3))).toEqual(
      raw.map((row) => [
        isoToSerial(row.date),
        row.values.rent_growth_rate_yoy ?? "",
        // Forecast occupancy comes in points (openapi.yaml x-field-units); cells hold every percent as a fraction.
        typeof row.values.occupancy_percent === "number"
          ? Math.round((row.values.occupancy_percent / 100) * 1e10) / 1e10
          : "",
      ]),
    );
  });

  it("spills a boundary forecast with bounds", async () => {
    const fields = ["rent_growth_yoy", "rent_growth_yoy_downside", "rent_growth_yoy_upside"];
    const raw = (
      await post(`/geo_boundary/${msaId}/forecasts`, {
        aggregations: fields.map((field) => ({ name: field, field, aggregation_type: "max" })),
        interval: "year",
      })
    ).data.attributes.time_series;
    const table = await geoForecast(
      msaId,
      [fields],
      "max",
      "year",
      undefined,
      undefined,
      undefined,
      undefined,
      fakeInvocation(),
    );
    expect(table.slice(1).map((row) => row.slice(0, 1 + fields.length))).toEqual(
      raw.map((row) => [isoToSerial(row.date), ...fields.map((f) => row.values[f] ?? "")]),
    );
    expect(table.length).toBeGreaterThanOrEqual(5);
  });

  it("checks the field, the interval and the dates before asking the service", async () => {
    const before = env.sandbox.counters.total();
    await expect(
      forecast(
        ids[0],
        [["rent"]],
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        fakeInvocation(),
      ),
    ).rejects.toMatchObject({ code: "#VALUE!" });
    await expect(
      forecast(
        ids[0],
        [["occupancy_percent"]],
        undefined,
        "week",
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        fakeInvocation(),
      ),
    ).rejects.toMatchObject({
      code: "#VALUE!",
      message:
        'interval must be one of month, quarter, year, next_12_months, next_3_years, next_5_years, not "week".',
    });
    await expect(
      forecast(
        ids[0],
        [["occupancy_percent"]],
        undefined,
        undefined,
        "soon",
        undefined,
        undefined,
        undefined,
        undefined,
        fakeInvocation(),
      ),
    ).rejects.toMatchObject({ code: "#VALUE!", message: expect.stringContaining("start must be a date") });
    expect(env.sandbox.counters.total()).toBe(before);
  });

  it("says forecasts are not in the base plan", async () => {
    await env.signInAs("demo-base");
    try {
      await expect(
        geoForecast(
          msaId,
          [["rent_growth_yoy"]],
          undefined,
          undefined,
          undefined,
          undefined,
          undefined,
          undefined,
          fakeInvocation(),
        ),
      ).rejects.toMatchObject({
        code: "#N/A",
        message: expect.stringMatching(
          /^Not in your plan \(pro\): Forecast time series of a boundary needs the pro tier/,
        ),
      });
    } finally {
      await env.signInAs("demo-proplus");
    }
  });
});
