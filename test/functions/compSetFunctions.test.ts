import { SANDBOX_VARIANTS, type SandboxVariant } from "../../sandbox/variant";
import { isoToSerial } from "../../src/tables/excelDates";
import { compSets } from "../../src/functions/accountFunctions";
import { floorPlans, survey, units } from "../../src/functions/compSetFunctions";
import { session } from "../../src/session/session";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

interface Envelope<T> {
  id: string;
  attributes: T;
}
type Row = unknown[];
type Bucketed = { floor_plans: Record<string, unknown>[] }[];
type FloorPlanAttributes = { floor_plans_by_bed_bath?: Bucketed; floor_plans_by_bed?: Bucketed };

/** Cells hold percents as fractions whatever the service sent: the alternate variant sends open-scale ones in points. */
function asFraction(value: unknown, variant: SandboxVariant): unknown {
  if (typeof value !== "number") return value ?? "";
  return variant === "alternate" ? Math.round((value / 100) * 1e10) / 1e10 : value;
}

/** The plans of a floor plans answer, whichever bucket key it uses. */
function plansOf(attributes: FloorPlanAttributes): Record<string, unknown>[] {
  return (attributes.floor_plans_by_bed_bath ?? attributes.floor_plans_by_bed ?? []).flatMap(
    (bucket) => bucket.floor_plans,
  );
}

describe.each(SANDBOX_VARIANTS)("against the %s variant", (variant) => {
  let env: SignedInSandbox;
  let compSetId: number;

  beforeAll(async () => {
    env = await startSignedInSandbox("demo-proplus", { variant, admin: true });
    const sets = await env.raw.get<{ data: Envelope<{ name: string }>[] }>(
      `/accounts/${env.accountId}/comp_sets`,
    );
    compSetId = Number(sets.data[0]?.id);
  });

  afterAll(() => env.close());

  /** The column of a spilled table by header name. */
  function column(table: unknown[][], name: string): unknown[] {
    const index = (table[0] as string[]).indexOf(name);
    if (index < 0) throw new Error(`no column ${name} in ${String(table[0])}`);
    return table.slice(1).map((row) => (row as Row)[index]);
  }

  describe("RENT.COMPSETS", () => {
    it("lists the account's comp sets as the service does", async () => {
      const raw = await env.raw.get<{ data: Envelope<{ name: string; property_ids: number[] }>[] }>(
        `/accounts/${env.accountId}/comp_sets`,
      );
      const table = await compSets(undefined, fakeInvocation());
      expect(table).toHaveLength(raw.data.length + 1);
      expect(column(table, "id")).toEqual(raw.data.map((set) => Number(set.id)));
      expect(column(table, "name")).toEqual(raw.data.map((set) => set.attributes.name));
      expect(column(table, "property_count")).toEqual(
        raw.data.map((set) => set.attributes.property_ids.length),
      );
    });

    it("refuses an account the sign-in may not act for", async () => {
      await expect(compSets(103_999, fakeInvocation())).rejects.toMatchObject({
        code: "#N/A",
        message: expect.stringContaining("not one your sign-in may act for"),
      });
    });
  });

  describe("RENT.SURVEY", () => {
    it("spills one row per surveyed property plus the comp average, with the service's numbers", async () => {
      const raw = await env.raw.get<{
        data: { attributes: { market_survey_items: Record<string, unknown>[] } };
      }>(`/comp_sets/${compSetId}/market_survey`);
      const items = raw.data.attributes.market_survey_items;
      const table = await survey(compSetId, undefined, undefined, fakeInvocation());
      expect(table).toHaveLength(items.length + 2);
      expect(column(table, "property_name")).toEqual([
        ...items.map((item) => item.property_name),
        "Comp average",
      ]);
      expect(column(table, "avg_rent").slice(0, -1)).toEqual(items.map((item) => item.avg_rent ?? ""));
      expect(column(table, "exposure_current").slice(0, -1)).toEqual(
        items.map((item) => asFraction((item.exposure as { current: number | null }).current, variant)),
      );
      expect(column(table, "leased_percent").slice(0, -1)).toEqual(
        items.map((item) => asFraction(item.leased_percent, variant)),
      );
      expect(column(table, "property_id").slice(0, -1)).toEqual(items.map((item) => item.id));
    });

    it("keeps only the columns asked for, in that order, and names an unknown one", async () => {
      const table = await survey(compSetId, [["property_name", "avg_rent"]], undefined, fakeInvocation());
      expect(table[0]).toEqual(["property_name", "avg_rent"]);
      await expect(survey(compSetId, [["avg_rnt"]], undefined, fakeInvocation())).rejects.toMatchObject({
        code: "#VALUE!",
        message: 'columns: there is no column "avg_rnt". Did you mean "avg_rent"?',
      });
    });
  });

  describe("RENT.UNITS", () => {
    it("spills every unit with dates as Excel serials and nulls as empty cells", async () => {
      const raw = await env.raw.get<{ data: Envelope<Record<string, unknown>>[] }>(
        `/comp_sets/${compSetId}/units`,
      );
      const table = await units(
        compSetId,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        fakeInvocation(),
      );
      expect(table).toHaveLength(raw.data.length + 1);
      expect(column(table, "id")).toEqual(raw.data.map((unit) => unit.id));
      expect(column(table, "min_rent")).toEqual(raw.data.map((unit) => unit.attributes.min_rent ?? ""));
      const available = column(table, "date_available");
      raw.data.forEach((unit, index) => {
        const iso = unit.attributes.date_available as string | null;
        expect(available[index]).toBe(iso === null ? "" : isoToSerial(iso));
      });
      expect((table[0] as string[]).some((header) => header.startsWith("amenities_"))).toBe(true);
      expect(table[0]).toContain("rent_concessions");
    });

    it("applies the positional filters and the options exactly like the service's own filters", async () => {
      const raw = await env.raw.get<{ data: Envelope<Record<string, unknown>>[] }>(
        `/comp_sets/${compSetId}/units`,
        {
          "filter[bedroom_count]": "1,2",
          "filter[rent_gte]": 1200,
          "filter[sq_ft_gte]": 600,
        },
      );
      expect(raw.data.length).toBeGreaterThan(0);
      const table = await units(
        compSetId,
        [[1, 2]],
        undefined,
        1200,
        undefined,
        [["min_sq_ft=600"]],
        undefined,
        fakeInvocation(),
      );
      expect(column(table, "id")).toEqual(raw.data.map((unit) => unit.id));
      for (const bedrooms of column(table, "bedroom_count")) expect([1, 2]).toContain(bedrooms);
    });

    it("says #N/A with the reason when no unit matches, and #VALUE! for an unknown option", async () => {
      await expect(
        units(compSetId, undefined, undefined, 1_000_000, undefined, undefined, undefined, fakeInvocation()),
      ).rejects.toMatchObject({
        code: "#N/A",
        message: `No units of comp set ${compSetId} match the filters.`,
      });
      await expect(
        units(
          compSetId,
          undefined,
          undefined,
          undefined,
          undefined,
          [["bedroms=2"]],
          undefined,
          fakeInvocation(),
        ),
      ).rejects.toMatchObject({
        code: "#VALUE!",
        message: expect.stringContaining('Unknown option "bedroms"'),
      });
      await expect(
        units(
          compSetId,
          undefined,
          undefined,
          undefined,
          undefined,
          [["unit_styles=loft"]],
          undefined,
          fakeInvocation(),
        ),
      ).rejects.toMatchObject({
        code: "#VALUE!",
        message: expect.stringContaining("unit_styles must be among"),
      });
    });
  });

  describe("RENT.FLOORPLANS", () => {
    it("spills the plans of the most recent collection day, flattened from the buckets", async () => {
      const raw = await env.raw.get<{ data: { attributes: FloorPlanAttributes } }>(
        `/comp_sets/${compSetId}/floor_plans`,
      );
      const plans = plansOf(raw.data.attributes);
      const table = await floorPlans(
        compSetId,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        fakeInvocation(),
      );
      expect(table).toHaveLength(plans.length + 1);
      expect(column(table, "name")).toEqual(plans.map((plan) => plan.name));
      expect(column(table, "collected_at")).toEqual(
        plans.map((plan) => {
          const [point] = plan.asking_rent_over_time as { collected_at: string }[];
          // A point's date may be the end of its day as a UTC timestamp (the examples variant): the cell is the day.
          return isoToSerial(point?.collected_at.slice(0, 10) ?? "");
        }),
      );
      expect(column(table, "asking_rent")).toEqual(plans.map((plan) => plan.asking_rent ?? ""));
      // The contract's unit mix is a fraction in every variant (api-notes): the cell is what was sent.
      expect(column(table, "unit_mix_percent")).toEqual(plans.map((plan) => plan.unit_mix_percent));
    });

    it("takes collection dates as Excel serials or ISO text", async () => {
      const raw = await env.raw.get<{ data: { attributes: { collected_at_dates: string[] } } }>(
        `/comp_sets/${compSetId}/floor_plans`,
        { "filter[collected_at_gte]": "2000-01-01" },
      );
      const days = raw.data.attributes.collected_at_dates;
      expect(days.length).toBeGreaterThan(1);
      const table = await floorPlans(
        compSetId,
        isoToSerial("2000-01-01"),
        undefined,
        undefined,
        undefined,
        undefined,
        fakeInvocation(),
      );
      // The service keeps a limited history: the header says which range came back of the one asked.
      const sorted = [...days].sort();
      const header = `collected_at (${sorted[0]} to ${sorted.at(-1)} of 2000-01-01 to today asked)`;
      expect(table[0]).toContain(header);
      const collected = new Set(column(table, header));
      expect([...collected].sort()).toEqual(days.map((day) => isoToSerial(day)).sort());
      await expect(
        floorPlans(compSetId, "yesterday", undefined, undefined, undefined, undefined, fakeInvocation()),
      ).rejects.toMatchObject({
        code: "#VALUE!",
        message: expect.stringContaining("collected_from must be a date"),
      });
    });
  });

  describe("an answer in an unexpected form", () => {
    // Each test must reach the service: earlier tests cached the same requests.
    beforeEach(() => session.requireSignedIn().data.clearCache());
    afterEach(() => env.sandbox.context.faults.reset());

    it.each([
      [
        "getMarketSurvey",
        () => survey(compSetId, undefined, undefined, fakeInvocation()),
        "(Market survey table of a comp set)",
      ],
      [
        "listCompSetFloorPlans",
        () => floorPlans(compSetId, undefined, undefined, undefined, undefined, undefined, fakeInvocation()),
        "(Floor plans of a comp set)",
      ],
      [
        "listCompSetUnits",
        () =>
          units(
            compSetId,
            undefined,
            undefined,
            undefined,
            undefined,
            undefined,
            undefined,
            fakeInvocation(),
          ),
        "(Units of a comp set)",
      ],
    ] as const)(
      "%s: a 200 whose data is not a list gives #N/A naming the operation in words, never its path",
      async (operationId, call, operation) => {
        env.sandbox.context.faults.update({
          replacedBodies: { [operationId]: JSON.stringify({ data: "maintenance" }) },
        });
        const refused = await call().then(
          () => undefined,
          (error: unknown) => error as { code: string; message: string },
        );
        expect(refused?.code).toBe("#N/A");
        expect(refused?.message).toMatch(/^The service answered in an unexpected form: /);
        expect(refused?.message).toContain(operation);
        expect(refused?.message).not.toContain("/comp_sets/");
        expect(refused?.message).not.toMatch(/is not a function|Cannot read properties/);
      },
    );

    it('reads numbers sent as text, such as "1,500.00"', async () => {
      const raw = await env.raw.get<{ data: { attributes: Record<string, unknown> } }>(
        `/comp_sets/${compSetId}/market_survey`,
      );
      const attributes = raw.data.attributes as { market_survey_items: Record<string, unknown>[] };
      const items = attributes.market_survey_items.map((item) => ({ ...item, avg_rent: "1,500.00" }));
      env.sandbox.context.faults.update({
        replacedBodies: {
          getMarketSurvey: JSON.stringify({
            data: { ...raw.data, attributes: { ...attributes, market_survey_items: items } },
          }),
        },
      });
      const table = await survey(compSetId, [["property_name", "avg_rent"]], undefined, fakeInvocation());
      expect(column(table, "avg_rent").slice(0, -1)).toEqual(items.map(() => 1500));
    });

    it("reads a unit's rent sent as text as a number, as the contract says number", async () => {
      const raw = await env.raw.get<{ data: Envelope<Record<string, unknown>>[] }>(
        `/comp_sets/${compSetId}/units`,
      );
      const [first, ...rest] = raw.data;
      if (!first) throw new Error("the comp set has units");
      const changed = [{ ...first, attributes: { ...first.attributes, min_rent: "1,234.50" } }, ...rest];
      env.sandbox.context.faults.update({
        replacedBodies: { listCompSetUnits: JSON.stringify({ data: changed }) },
      });
      const table = await units(
        compSetId,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        fakeInvocation(),
      );
      expect(column(table, "min_rent")[0]).toBe(1234.5);
    });
  });
});
