import { ApiError } from "../../src/api/errors";
import { FieldPath } from "../../src/api/readers/answerForm";
import { floorPlansReader, marketSurveyReader } from "../../src/api/readers/compSetReaders";
import {
  accountsReader,
  bulkDetailsReader,
  exploreMarketsReader,
  unitsReader,
} from "../../src/api/readers/serviceReaders";

/** A reader applied to a body as the data layer applies it. */
function read<T>(reader: { endpoint: string; read(body: unknown, at: FieldPath): T }, body: unknown): T {
  return reader.read(body, new FieldPath(reader.endpoint));
}

function failure(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("the reader accepted the body");
}

const liveItem = {
  id: 42,
  property_name: "Live Tower",
  avg_rent: 1810.5,
  leased_percent: 0.9715,
  advertised_occupancy_percent: 0.95,
  exposure: { current: 0.05, next_30_days: 0.07, next_60_days: 0.09 },
  amenities: { "Stainless Steel Appliances": true, Pool: false, Gym: true },
  concessions: { id: 1, property_id: 42, display_text: "6 weeks free", rent_concessions: [] },
  fees_and_deposits: {
    admin: { title: "Admin fee", description: null, min: 150, max: 200 },
    application: 50,
  },
  a_field_added_later: "kept",
};

const earlierItem = {
  property_id: 43,
  property_name: "Earlier Court",
  avg_rent: "1,500.00",
  leased_percent: 96.5,
  advertised_occupancy_percent: 94,
  exposure: { current: 6, next_30_days: 8, next_60_days: 10 },
  amenities: ["Pool"],
  concessions: "1 month free",
  fees_and_deposits: [{ name: "Application fee", amount: 75, frequency: "one_time", required: true }],
};

const survey = (item: object) => ({
  data: {
    id: 1,
    type: "market_survey",
    attributes: { market_survey_items: [item], comp_average_column: null },
  },
});

describe("the market survey reader", () => {
  it("reads the live form: id, amenity and fee objects, concession objects, fractions kept as fractions", () => {
    const [item] = read(marketSurveyReader, survey(liveItem)).items;
    expect(item).toMatchObject({
      property_id: 42,
      leased_percent: 0.9715,
      exposure: { current: 0.05, next_30_days: 0.07, next_60_days: 0.09 },
      amenities: ["Stainless Steel Appliances", "Gym"],
      concessions: "6 weeks free",
      fees_and_deposits: { admin: { min: 150, max: 200 }, application: { min: 50, max: 50 } },
      a_field_added_later: "kept",
    });
  });

  it("reads the earlier form: property_id, lists, text, points as fractions, numbers sent as text", () => {
    const [item] = read(marketSurveyReader, survey(earlierItem)).items;
    expect(item).toMatchObject({
      property_id: 43,
      avg_rent: 1500,
      leased_percent: 0.965,
      exposure: { current: 0.06 },
      amenities: ["Pool"],
      concessions: "1 month free",
      fees_and_deposits: { application_fee: { min: 75, max: 75 } },
    });
  });

  it("names the operation in words (never its service path) and the place of anything else", () => {
    expect(failure(() => read(marketSurveyReader, { data: [] })).message).toBe(
      "The service answered in an unexpected form: data should be an object but is a list " +
        "(Market survey table of a comp set). Check the service URL, or report it.",
    );
    const wrongRent = failure(() =>
      read(marketSurveyReader, survey({ ...liveItem, avg_rent: "about 1500" })),
    );
    expect(wrongRent.kind).toBe("unexpected_answer");
    expect(wrongRent.message).toContain(
      'data.attributes.market_survey_items[0].avg_rent should be a number but is the text "about 1500"',
    );
    expect(failure(() => read(marketSurveyReader, survey({ ...liveItem, id: undefined }))).message).toContain(
      "market_survey_items[0].id should be an id but is missing",
    );
  });
});

const plan = (fields: object) => ({
  property_id: 7,
  property_name: "Plan Court",
  subject_property: false,
  name: "A1",
  bedroom_count: 1,
  bathroom_count: 1,
  asking_rent: 1600,
  net_effective_rent: 1550,
  unit_mix_percent: 0.25,
  ...fields,
});

describe("the floor plans reader", () => {
  it("reads floor_plans_by_bed with histories: a row per day, the latest with the plan's figures", () => {
    const rows = read(floorPlansReader, {
      data: {
        id: 3,
        type: "floorplan",
        attributes: {
          floor_plans_by_bed: [
            {
              bedroom_count: 1,
              floor_plans: [
                plan({
                  asking_rent_over_time: [
                    { collected_at: "2026-03-02", value: 1600 },
                    { collected_at: "2026-03-01", value: "1,590" },
                  ],
                  net_effective_rent_over_time: [{ collected_at: "2026-03-02", value: 1550 }],
                }),
              ],
              floor_plan_summary: { name: "1 bed" },
            },
          ],
        },
      },
    });
    expect(rows).toEqual([
      {
        property_id: 7,
        property_name: "Plan Court",
        subject_property: false,
        name: "A1",
        bedroom_count: 1,
        bathroom_count: 1,
        collected_at: "2026-03-01",
        asking_rent: 1590,
        net_effective_rent: null,
      },
      expect.objectContaining({ collected_at: "2026-03-02", asking_rent: 1600, unit_mix_percent: 0.25 }),
    ]);
  });

  it("reads floor_plans_by_bed_bath entries of one day each, keyed by id", () => {
    const rows = read(floorPlansReader, {
      data: {
        attributes: {
          floor_plans_by_bed_bath: [
            { floor_plans: [plan({ property_id: undefined, id: 9, collected_at: "2026-03-01" })] },
          ],
        },
      },
    });
    expect(rows).toEqual([expect.objectContaining({ property_id: 9, collected_at: "2026-03-01" })]);
  });

  it("reads each percent of a plan in its field's scale: change percents in points beside a unit mix fraction", () => {
    // The vendor's example (api-notes third pass): a change of -28.5 on 1,869.83 is -1.5 (points) while the unit
    // mix is 0.1 (a fraction), in one record. Judged once for the record, one of them would be off 100 times.
    const rows = read(floorPlansReader, {
      data: {
        attributes: {
          floor_plans_by_bed_bath: [
            {
              floor_plans: [
                plan({
                  collected_at: "2024-09-10",
                  asking_rent: 1869.83,
                  asking_rent_change: -28.5,
                  asking_rent_change_percent: -1.5,
                  net_effective_rent_change_percent: 0.4,
                  unit_mix_percent: 0.1,
                }),
              ],
            },
          ],
        },
      },
    });
    expect(rows).toEqual([
      expect.objectContaining({
        asking_rent_change_percent: -0.015,
        net_effective_rent_change_percent: 0.004,
        unit_mix_percent: 0.1,
      }),
    ]);
  });

  it("dates history points by their UTC day, whether sent as a date or as the end of the day in UTC", () => {
    const rows = read(floorPlansReader, {
      data: {
        attributes: {
          floor_plans_by_bed_bath: [
            {
              floor_plans: [
                plan({
                  asking_rent_over_time: [
                    { collected_at: "2024-09-09T23:59:59.999Z", value: 1880 },
                    { collected_at: "2024-09-10T23:59:59.999Z", value: 1869.83 },
                  ],
                  net_effective_rent_over_time: [{ collected_at: "2024-09-10", value: 1850 }],
                }),
              ],
            },
          ],
        },
      },
    });
    expect(rows).toEqual([
      expect.objectContaining({ collected_at: "2024-09-09", asking_rent: 1880, net_effective_rent: null }),
      expect.objectContaining({ collected_at: "2024-09-10", asking_rent: 1869.83, net_effective_rent: 1850 }),
    ]);
    const bad = plan({ asking_rent_over_time: [{ collected_at: "Sept 10", value: 1 }] });
    const body = { data: { attributes: { floor_plans_by_bed: [{ floor_plans: [bad] }] } } };
    expect(failure(() => read(floorPlansReader, body)).message).toContain(
      'asking_rent_over_time[0].collected_at should be a date but is the text "Sept 10"',
    );
  });

  it("says which bucket keys it looked for", () => {
    expect(failure(() => read(floorPlansReader, { data: { attributes: { plans: [] } } })).message).toContain(
      "data.attributes.floor_plans_by_bed_bath or floor_plans_by_bed should be a list of buckets but is missing",
    );
  });
});

describe("the accounts reader", () => {
  it("takes a page without pagination or without total_pages, and refuses pagination that is no object", () => {
    const accounts = [{ id: 1, name: "A" }];
    expect(read(accountsReader, { data: accounts }).data).toEqual(accounts);
    expect(read(accountsReader, { data: accounts, pagination: { current_page: 1 } }).data).toEqual(accounts);
    expect(failure(() => read(accountsReader, { data: accounts, pagination: "none" })).message).toContain(
      'pagination should be an object but is the text "none" (Accounts the caller may act for)',
    );
  });
});

describe("the bulk details reader", () => {
  const details = (attributes: object) => ({ data: [{ id: "100001", type: "properties", attributes }] });

  it("reads the contract's number fields sent as text, and leaves absent and text fields alone", () => {
    const [record] = read(
      bulkDetailsReader,
      details({ asking_rent: "1,500.00", unit_count: "212", zip: "78701" }),
    ).data;
    expect(record?.attributes).toEqual({ asking_rent: 1500, unit_count: 212, zip: "78701" });
  });

  it("refuses a number field that holds no number, naming it", () => {
    expect(
      failure(() => read(bulkDetailsReader, details({ asking_rent: "call for pricing" }))).message,
    ).toContain(
      'data[0].attributes.asking_rent should be a number but is the text "call for pricing" (Details of many properties)',
    );
  });
});

describe("percents leave the readers as fractions, whatever scale the service wrote (openapi.yaml x-sent-as)", () => {
  const markets = (...attributes: object[]) => ({
    data: attributes.map((fields, index) => ({
      id: String(index + 1),
      type: "compare_market",
      attributes: { id: index + 1, ...fields },
    })),
  });
  const attributesOf = (body: { data: { attributes: unknown }[] }) =>
    body.data.map((entry) => entry.attributes);

  it("judges each open-scale percent on its own values, never on the answer's other fields", () => {
    const [austin, dallas] = attributesOf(
      read(
        exploreMarketsReader,
        markets(
          {
            leased_percent_avg_t30: 91.87,
            exposure_percent_avg_t30: 0.062,
            concession_percent_avg_t30: 0.0242,
          },
          { leased_percent_avg_t30: 95.1, exposure_percent_avg_t30: 0.05 },
        ),
      ),
    );
    // Leased is in points; exposure, sent beside it in the same records, is a fraction.
    expect(austin).toMatchObject({
      leased_percent_avg_t30: 0.9187,
      exposure_percent_avg_t30: 0.062,
      concession_percent_avg_t30: 0.0242,
    });
    expect(dallas).toMatchObject({ leased_percent_avg_t30: 0.951, exposure_percent_avg_t30: 0.05 });
  });

  it("keeps fractions as fractions; a 100 % occupancy written as 1 does not flip the answer to points", () => {
    const read1 = attributesOf(
      read(
        exploreMarketsReader,
        markets(
          {
            leased_percent_avg_t30: 1,
            advertised_occupancy_percent_avg_t30: 1,
            rent_growth_rate_yoy_avg: 0.0303,
          },
          { leased_percent_avg_t30: 0.9187, advertised_occupancy_percent_avg_t30: 0.95 },
        ),
      ),
    );
    expect(read1).toEqual([
      expect.objectContaining({ leased_percent_avg_t30: 1, rent_growth_rate_yoy_avg: 0.0303 }),
      expect.objectContaining({ leased_percent_avg_t30: 0.9187, advertised_occupancy_percent_avg_t30: 0.95 }),
    ]);
  });

  it("judges each answer on its own: a points answer after a fraction answer", () => {
    const first = attributesOf(
      read(bulkDetailsReader, {
        data: [{ id: "1", type: "properties", attributes: { leased_percent: 0.95 } }],
      }),
    );
    const second = attributesOf(
      read(bulkDetailsReader, {
        data: [{ id: "1", type: "properties", attributes: { leased_percent: 95 } }],
      }),
    );
    expect(first).toEqual([{ leased_percent: 0.95 }]);
    expect(second).toEqual([{ leased_percent: 0.95 }]);
  });

  it("reads a unit's signed rent change written as text as a number", () => {
    const [unit] = attributesOf(
      read(unitsReader, {
        data: [
          {
            id: "7_1",
            type: "unit",
            attributes: { last_rent_change: "+40.00", total_30_day_rent_change: "-1,025.50" },
          },
        ],
      }),
    );
    expect(unit).toEqual({ last_rent_change: 40, total_30_day_rent_change: -1025.5 });
  });
});
