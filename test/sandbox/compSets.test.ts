import { compSetsOf } from "../../sandbox/data/compSets";
import { datasetFor } from "../../sandbox/data/dataset";
import { ACCOUNT, startTestSandbox, type TestSandbox } from "./support/fixtures";

let t: TestSandbox;
const dataset = datasetFor(1, 20_000);
const compSet = compSetsOf(dataset).find((set) => set.accountId === ACCOUNT.pro);
if (!compSet) throw new Error("no comp set for the pro account");

beforeAll(async () => {
  t = await startTestSandbox();
});

afterAll(async () => {
  await t.sandbox.close();
});

type Unit = {
  id: string;
  attributes: Record<string, unknown> & {
    bedroom_count: number;
    bathroom_count: number;
    property_id: number;
    sq_ft: number;
    min_rent: number;
    date_available: string;
    year_built: number;
  };
};
type HistoryPoint = { collected_at: string; value: number | null };
type FloorPlan = Record<string, unknown> & {
  asking_rent_over_time: HistoryPoint[];
  net_effective_rent_over_time: HistoryPoint[];
  unit_mix_percent: number;
  unit_count: number;
};
type FloorPlans = {
  collected_at_dates: string[];
  floor_plans_by_bed_bath: {
    bedroom_count: number;
    bathroom_count: number;
    floor_plans: FloorPlan[];
    floor_plan_summary: Record<string, unknown>;
  }[];
};

async function units(query = ""): Promise<Unit[]> {
  const response = await t.client.as<{ data: Unit[] }>(
    "demo-pro",
    "GET",
    `/v1/comp_sets/${compSet?.id}/units${query}`,
  );
  expect(response.status).toBe(200);
  return response.body.data;
}

async function floorPlans(query = ""): Promise<FloorPlans> {
  const response = await t.client.as<{ data: { attributes: FloorPlans } }>(
    "demo-pro",
    "GET",
    `/v1/comp_sets/${compSet?.id}/floor_plans${query}`,
  );
  expect(response.status).toBe(200);
  return response.body.data.attributes;
}

describe("comp sets", () => {
  it("lists the account's comp sets", async () => {
    const response = await t.client.as<{
      data: { id: string; attributes: { property_ids: number[]; subject_property_ids: number[] } }[];
    }>("demo-pro", "GET", `/v1/accounts/${ACCOUNT.pro}/comp_sets`);
    const expected = compSetsOf(dataset).filter((set) => set.accountId === ACCOUNT.pro);
    expect(response.body.data.map((set) => Number(set.id))).toEqual(expected.map((set) => set.id));
    expect(response.body.data[0]?.attributes.subject_property_ids).toEqual(expected[0]?.subjectIds);
  });

  it("answers comp sets and units whole, unpaged, as the live service does", async () => {
    // Live: all 285 comp sets of an account in one answer, about 490 units per comp set in one answer.
    const sets = await t.client.as<Record<string, unknown>>(
      "demo-pro",
      "GET",
      `/v1/accounts/${ACCOUNT.pro}/comp_sets`,
    );
    expect(Object.keys(sets.body)).toEqual(["data"]);
    const answer = await t.client.as<{ data: Unit[] }>(
      "demo-pro",
      "GET",
      `/v1/comp_sets/${compSet.id}/units`,
    );
    expect(Object.keys(answer.body)).toEqual(["data"]);
    // Every listed unit is there: as many as the same day's survey counts over its properties and unit types.
    const survey = await t.client.as<{
      data: {
        attributes: { market_survey_items: { by_unit_type_available_units_count: Record<string, number> }[] };
      };
    }>("demo-pro", "GET", `/v1/comp_sets/${compSet.id}/market_survey`);
    const counted = survey.body.data.attributes.market_survey_items
      .flatMap((item) => Object.values(item.by_unit_type_available_units_count))
      .reduce((sum, count) => sum + count, 0);
    expect(answer.body.data.length).toBe(counted);
    // More than one page of the service's usual page size (50, accounts and jobs), or paging would not show.
    expect(counted).toBeGreaterThan(50);
    for (const path of [`/v1/accounts/${ACCOUNT.pro}/comp_sets`, `/v1/comp_sets/${compSet.id}/units`]) {
      for (const paging of ["page=2", "per_page=50"]) {
        const refused = await t.client.as<{ error: string }>("demo-pro", "GET", `${path}?${paging}`);
        expect([refused.status, refused.body.error]).toEqual([
          400,
          expect.stringMatching(/^Unknown query parameter/),
        ]);
      }
    }
  });

  it("gives a market survey row per property with all-in pricing and a comp average column", async () => {
    const response = await t.client.as<{
      data: {
        attributes: {
          market_survey_items: Record<string, unknown>[];
          comp_average_column: Record<string, unknown>;
        };
      };
    }>("demo-pro", "GET", `/v1/comp_sets/${compSet.id}/market_survey`);
    const { market_survey_items: items, comp_average_column: average } = response.body.data.attributes;
    expect(items.map((item) => item.id)).toEqual(compSet.propertyIds);
    const first = items[0] as {
      total_monthly_leasing_price_breakdown: {
        base_rent: number;
        required_monthly_fees: number;
        total: number;
      };
    };
    const breakdown = first.total_monthly_leasing_price_breakdown;
    expect(breakdown.total).toBeCloseTo(breakdown.base_rent + breakdown.required_monthly_fees, 2);
    const comps = items.filter((item) => !item.subject_property).map((item) => item.avg_rent as number);
    expect(average.avg_rent).toBeCloseTo(comps.reduce((a, b) => a + b, 0) / comps.length, 2);
  });

  it("answers the survey in the live form: integer id, items keyed by id, objects for amenities, concessions and fees", async () => {
    const response = await t.client.as<{
      data: { id: unknown; type: string; attributes: { market_survey_items: Record<string, unknown>[] } };
    }>("demo-pro", "GET", `/v1/comp_sets/${compSet.id}/market_survey`);
    const { data } = response.body;
    expect(data).toMatchObject({ id: compSet.id, type: "market_survey" });
    const items = data.attributes.market_survey_items;
    for (const item of items) {
      expect(item).not.toHaveProperty("property_id");
      expect(Object.values(item.amenities as object).every((has) => typeof has === "boolean")).toBe(true);
      // The whole vocabulary for every property, false where absent (about 95 names live).
      const amenities = item.amenities as Record<string, boolean>;
      expect(Object.keys(amenities).length).toBeGreaterThanOrEqual(90);
      expect(amenities).toMatchObject({
        "Access Gates (Driving)": expect.any(Boolean),
        "Courtesy Patrol": expect.any(Boolean),
        "Furnished Available": expect.any(Boolean),
      });
      expect(Object.values(amenities)).toContain(false);
      // The same vocabulary for every property: a property lacking an amenity says false, it does not omit it.
      expect(Object.keys(amenities).sort()).toEqual(Object.keys(items[0]?.amenities as object).sort());
      const fees = item.fees_and_deposits as Record<string, unknown>;
      expect(fees.admin).toMatchObject({
        title: "Admin fee",
        min: expect.any(Number),
        max: expect.any(Number),
      });
      expect(typeof fees.application).toBe("number");
      // Percents are fractions in the documented variant: 0.97 means 97 %.
      expect(item.leased_percent as number).toBeGreaterThan(0);
      expect(item.leased_percent as number).toBeLessThanOrEqual(1);
      expect(item).toHaveProperty("by_unit_type_rent_avg");
    }
    const withConcession = items.find((item) => item.concessions !== null);
    expect(withConcession?.concessions).toMatchObject({
      display_text: expect.any(String),
      rent_concessions: expect.any(Array),
      non_rent_concessions: expect.any(Array),
    });
  });

  it("narrows the survey's rents to the bedroom counts of filter[bedroom_count]", async () => {
    type Survey = {
      data: { attributes: { market_survey_items: Record<string, Record<string, unknown>>[] } };
    };
    const path = `/v1/comp_sets/${compSet.id}/market_survey`;
    const all = (await t.client.as<Survey>("demo-pro", "GET", path)).body;
    const answer = await t.client.as<Survey>("demo-pro", "GET", `${path}?filter[bedroom_count]=1`);
    expect(answer.status).toBe(200);
    const ones = answer.body;
    const first = (answer: Survey) => answer.data.attributes.market_survey_items[0] as Record<string, object>;
    expect(Object.keys(first(ones).by_unit_type_rent_avg ?? {})).toEqual(["1_bed"]);
    expect(Object.keys(first(all).by_unit_type_rent_avg ?? {}).length).toBeGreaterThan(1);
    expect(first(ones).avg_rent).not.toEqual(first(all).avg_rent);
  });
});

describe("GET /comp_sets/{id}/units", () => {
  it("lists available units of every property with every unit field", async () => {
    const all = await units();
    expect(all.length).toBeGreaterThan(20);
    expect(new Set(all.map((unit) => unit.attributes.property_id))).toEqual(new Set(compSet.propertyIds));
    const withConcession = all.find((unit) => unit.attributes.concessions !== null);
    expect(withConcession?.attributes.concessions).toMatchObject({
      rent_concessions: [expect.objectContaining({ subject: "rent" })],
    });
    for (const unit of all) {
      expect(unit.id).toMatch(/^\d+_\d+$/);
      expect(unit.attributes.all_in_rent as number).toBeGreaterThan(unit.attributes.min_rent);
      expect(Object.keys(unit.attributes.amenity_names as object).length).toBeGreaterThan(0);
    }
  });

  it.each([
    ["filter[bedroom_count]=1,2", (u: Unit) => [1, 2].includes(u.attributes.bedroom_count)],
    ["filter[bathroom_count]=2", (u: Unit) => u.attributes.bathroom_count === 2],
    [
      `filter[property_ids]=${compSet.propertyIds[1]}`,
      (u: Unit) => u.attributes.property_id === compSet.propertyIds[1],
    ],
    [
      "filter[sq_ft_gte]=800&filter[sq_ft_lte]=1100",
      (u: Unit) => u.attributes.sq_ft >= 800 && u.attributes.sq_ft <= 1100,
    ],
    [
      "filter[rent_gte]=1500&filter[rent_lte]=2500",
      (u: Unit) => u.attributes.min_rent >= 1500 && u.attributes.min_rent <= 2500,
    ],
    [
      "filter[date_available_gte]=2026-03-10&filter[date_available_lte]=2026-03-31",
      (u: Unit) => u.attributes.date_available >= "2026-03-10" && u.attributes.date_available <= "2026-03-31",
    ],
    [
      "filter[year_built_gte]=1990&filter[year_built_lte]=2010",
      (u: Unit) => u.attributes.year_built >= 1990 && u.attributes.year_built <= 2010,
    ],
  ])("filters with %s", async (query, predicate) => {
    const all = await units();
    const expected = all.filter(predicate).map((unit) => unit.id);
    // The filter must split the units, or the test would prove nothing.
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
    expect((await units(`?${query}`)).map((unit) => unit.id)).toEqual(expected);
  });

  it("names unit statuses as the live service does: Available, Applied or Leased", async () => {
    const statuses = new Set((await units()).map((unit) => unit.attributes.status));
    expect(statuses).toEqual(new Set(["Available", "Applied", "Leased"]));
  });

  it("lists leased units too, as the live service does: is_leased with the time of the lease", async () => {
    const all = await units();
    const leased = all.filter((unit) => unit.attributes.is_leased === true);
    expect(leased.length).toBeGreaterThan(0);
    expect(leased.length).toBeLessThan(all.length);
    for (const unit of all) {
      if (unit.attributes.is_leased === true) {
        expect(unit.attributes.status).toBe("Leased");
        expect(unit.attributes.date_leased).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      } else {
        expect(unit.attributes.date_leased).toBeNull();
      }
    }
  });

  it("partitions units by unit style", async () => {
    const all = await units();
    const styles = ["affordable", "standard", "penthouse", "renovated"];
    const parts = await Promise.all(styles.map((style) => units(`?filter[unit_styles]=${style}`)));
    expect(
      parts
        .flat()
        .map((unit) => unit.id)
        .sort(),
    ).toEqual(all.map((unit) => unit.id).sort());
    expect((await units(`?filter[unit_styles]=${styles.join(",")}`)).length).toBe(all.length);
    const bad = await t.client.as(
      "demo-pro",
      "GET",
      `/v1/comp_sets/${compSet.id}/units?filter[unit_styles]=luxury`,
    );
    expect(bad.status).toBe(400);
  });
});

describe("GET /comp_sets/{id}/floor_plans", () => {
  it("returns the most recent collection day alone without a collected_at filter", async () => {
    const plans = await floorPlans();
    expect(plans.collected_at_dates).toEqual(["2026-03-15"]);
    const rows = plans.floor_plans_by_bed_bath.flatMap((group) => group.floor_plans);
    expect(rows.every((row) => row.asking_rent_over_time.length === 1)).toBe(true);
    expect(rows[0]?.asking_rent_over_time[0]).toEqual({
      collected_at: "2026-03-15",
      value: rows[0]?.asking_rent,
    });
    expect(
      rows.every((row) => typeof row.all_in_rent === "number" && typeof row.all_in_ner_per_sqft === "number"),
    ).toBe(true);
  });

  it("answers one entry per plan with its rent history over a collected_at range", async () => {
    const plans = await floorPlans(
      "?filter[collected_at_gte]=2026-03-10&filter[collected_at_lte]=2026-03-12",
    );
    expect(plans.collected_at_dates).toEqual(["2026-03-10", "2026-03-11", "2026-03-12"]);
    const rows = plans.floor_plans_by_bed_bath.flatMap((group) => group.floor_plans);
    const latest = (await floorPlans()).floor_plans_by_bed_bath.flatMap((group) => group.floor_plans);
    expect(rows).toHaveLength(latest.length);
    for (const row of rows) {
      expect(row.asking_rent_over_time.map((point) => point.collected_at)).toEqual(plans.collected_at_dates);
      expect(row.net_effective_rent_over_time).toHaveLength(3);
      expect(row.asking_rent).toBe(row.asking_rent_over_time[2]?.value);
    }
    const fromOnly = await floorPlans("?filter[collected_at_gte]=2026-03-13");
    expect(fromOnly.collected_at_dates).toEqual(["2026-03-13", "2026-03-14", "2026-03-15"]);
  });

  it("gives each bucket its own summary and unit mix as fractions", async () => {
    const response = await t.client.as<{ data: { id: unknown; type: string; attributes: FloorPlans } }>(
      "demo-pro",
      "GET",
      `/v1/comp_sets/${compSet.id}/floor_plans`,
    );
    expect(response.body.data).toMatchObject({ id: compSet.id, type: "floorplan" });
    for (const bucket of response.body.data.attributes.floor_plans_by_bed_bath) {
      expect(bucket.floor_plan_summary).toMatchObject({
        bedroom_count: bucket.bedroom_count,
        unit_count: bucket.floor_plans.reduce((sum, plan) => sum + plan.unit_count, 0),
      });
    }
    const plans = response.body.data.attributes.floor_plans_by_bed_bath.flatMap(
      (bucket) => bucket.floor_plans,
    );
    const firstProperty = plans.filter((plan) => plan.property_id === plans[0]?.property_id);
    expect(firstProperty.reduce((sum, plan) => sum + plan.unit_mix_percent, 0)).toBeCloseTo(1, 2);
  });

  it("computes plans over units available in the date_available range", async () => {
    const all = await floorPlans();
    const narrow = await floorPlans(
      "?filter[date_available_gte]=2026-03-20&filter[date_available_lte]=2026-03-31",
    );
    const count = (plans: FloorPlans) =>
      plans.floor_plans_by_bed_bath
        .flatMap((group) => group.floor_plans)
        .reduce((sum, row) => sum + (row.available_unit_count as number), 0);
    const matchingUnits = (
      await units("?filter[date_available_gte]=2026-03-20&filter[date_available_lte]=2026-03-31")
    ).length;
    expect(count(narrow)).toBe(matchingUnits);
    expect(count(narrow)).toBeLessThan(count(all));
  });
});

describe("isolation", () => {
  it("answers 403 for another account's comp set and 404 for an unknown one", async () => {
    const foreign = compSetsOf(dataset).find((set) => set.accountId === ACCOUNT.proPlus);
    for (const endpoint of ["units", "floor_plans", "market_survey"]) {
      expect((await t.client.as("demo-pro", "GET", `/v1/comp_sets/${foreign?.id}/${endpoint}`)).status).toBe(
        403,
      );
      expect((await t.client.as("demo-pro", "GET", `/v1/comp_sets/424242/${endpoint}`)).status).toBe(404);
    }
  });

  it("shares the shared account's comp sets with every client", async () => {
    const shared = compSetsOf(dataset).find((set) => set.accountId === ACCOUNT.shared);
    for (const clientId of ["demo-base", "demo-pro", "demo-proplus"]) {
      expect((await t.client.as(clientId, "GET", `/v1/comp_sets/${shared?.id}/units`)).status).toBe(200);
    }
  });
});

describe("the alternate variant", () => {
  let alternate: TestSandbox;

  beforeAll(async () => {
    alternate = await startTestSandbox({ variant: "alternate" });
  });

  afterAll(async () => {
    await alternate.sandbox.close();
  });

  it("buckets floor plans by bedroom count and writes percents as points", async () => {
    const plans = await alternate.client.as<{ data: { attributes: Record<string, unknown> } }>(
      "demo-pro",
      "GET",
      `/v1/comp_sets/${compSet.id}/floor_plans`,
    );
    const { attributes } = plans.body.data;
    expect(attributes).not.toHaveProperty("floor_plans_by_bed_bath");
    const buckets = attributes.floor_plans_by_bed as { bedroom_count: number; bathroom_count?: number }[];
    expect(buckets.map((bucket) => bucket.bedroom_count)).toEqual(
      [...new Set(buckets.map((bucket) => bucket.bedroom_count))].sort(),
    );
    expect(buckets.every((bucket) => bucket.bathroom_count === undefined)).toBe(true);
    const survey = await alternate.client.as<{
      data: { attributes: { market_survey_items: { leased_percent: number }[] } };
    }>("demo-pro", "GET", `/v1/comp_sets/${compSet.id}/market_survey`);
    expect(survey.body.data.attributes.market_survey_items[0]?.leased_percent).toBeGreaterThan(1);
  });
});
