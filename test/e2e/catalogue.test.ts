/**
 * The add-in whole in Chromium: the real build in the preview's host, signed in through its pane, every
 * function of the catalogue typed into cells. Each cell must show the sandbox's own answer (fetched here over
 * plain HTTP) in the right spill shape; bad input must show its error and message. The whole catalogue runs
 * against each answer variant of the sandbox.
 */
import { SANDBOX_VARIANTS } from "../../sandbox/variant";
import { isoToSerial } from "../../src/tables/excelDates";
import {
  SETUP_TIMEOUT_MS,
  calculate,
  column,
  newSheet,
  openPreviewBrowser,
  shownAt,
  signIn,
  typeInto,
  typeWithKeyboard,
  valuesOf,
  type PreviewBrowser,
} from "./support/previewBrowser";
import { monthsCovered } from "../support/forecastMonths";
import { rawService, type RawService } from "../support/rawService";

jest.setTimeout(60_000);

interface Envelope<T> {
  id: string;
  attributes: T;
}
type Attributes = Record<string, unknown>;
type Series = { date: string; values: Record<string, number | null> }[];
type Buckets = { floor_plans: Attributes[] }[];

describe.each(SANDBOX_VARIANTS)("against the %s variant", (variant) => {
  let world: PreviewBrowser;
  let raw: RawService;
  let accountId: number;
  let compSetId: number;
  let msaId: number;
  let austinIds: number[];

  const orEmpty = (value: unknown) => value ?? "";

  beforeAll(async () => {
    world = await openPreviewBrowser({ variant });
    raw = await rawService(world.preview.sandbox.url, "demo-proplus", "sandbox-secret-proplus");
    accountId = (await raw.get<{ data: { id: number }[] }>("/accounts")).data[0]?.id ?? 0;
    const sets = await raw.get<{ data: Envelope<unknown>[] }>(`/accounts/${accountId}/comp_sets`);
    compSetId = Number(sets.data[0]?.id);
    const msa = await raw.post<{ data: Envelope<{ id: number }>[] }>("/geo_boundaries/search", {
      account_id: accountId,
      query: "Austin",
      geo_type: "MSA",
      limit: 1,
    });
    msaId = msa.data[0]?.attributes.id ?? 0;
    austinIds = (
      await raw.get<{ data: number[] }>("/properties/lookup", {
        account_id: accountId,
        city: "Austin",
        per_page: 6,
      })
    ).data;
  }, SETUP_TIMEOUT_MS);

  afterAll(() => world?.close());

  describe("signing in through the pane", () => {
    it("makes the cells work: RENT.ACCOUNTS spills the accounts the service lists", async () => {
      const sheet = await newSheet(world.page);
      await typeWithKeyboard(world.page, "B2", "=RENT.ACCOUNTS()");
      const before = await shownAt(world.page, sheet, "B2");
      expect(before).toEqual([[{ value: "#N/A", errorMessage: expect.stringContaining("Not signed in") }]]);

      await signIn(world, "demo-proplus", "sandbox-secret-proplus");
      // The pane recalculates the workbook after signing in: the same cell now spills.
      await world.page.waitForFunction(
        () => document.querySelector('#grid td[data-address="B2"]')?.textContent === "id",
      );
      const accounts = await raw.get<{ data: { id: number; name: string }[] }>("/accounts");
      expect(valuesOf(await shownAt(world.page, sheet, "B2"))).toEqual([
        ["id", "name"],
        ...accounts.data.map((account) => [account.id, account.name]),
      ]);
      expect(await world.pane.locator("#account-picker option").count()).toBe(accounts.data.length);
    });
  });

  describe("the function catalogue against the sandbox", () => {
    it("RENT.COMPSETS and RENT.SURVEY", async () => {
      const sets = await raw.get<{ data: Envelope<{ name: string; property_ids: number[] }>[] }>(
        `/accounts/${accountId}/comp_sets`,
      );
      const compSets = valuesOf(await calculate(world.page, "=RENT.COMPSETS()"));
      expect(compSets).toHaveLength(sets.data.length + 1);
      expect(column(compSets, "id")).toEqual(sets.data.map((set) => Number(set.id)));
      expect(column(compSets, "name")).toEqual(sets.data.map((set) => set.attributes.name));

      const answer = await raw.get<{ data: { attributes: { market_survey_items: Attributes[] } } }>(
        `/comp_sets/${compSetId}/market_survey`,
      );
      const items = answer.data.attributes.market_survey_items;
      const survey = valuesOf(
        await calculate(world.page, `=RENT.SURVEY(${compSetId}, "property_name, avg_rent")`),
      );
      expect(survey[0]).toEqual(["property_name", "avg_rent"]);
      expect(survey).toHaveLength(items.length + 2);
      expect(column(survey, "property_name")).toEqual([
        ...items.map((item) => item.property_name),
        "Comp average",
      ]);
      expect(column(survey, "avg_rent").slice(0, -1)).toEqual(items.map((item) => orEmpty(item.avg_rent)));
    });

    it("RENT.UNITS and RENT.FLOORPLANS", async () => {
      const units = await raw.get<{ data: Envelope<Attributes>[] }>(`/comp_sets/${compSetId}/units`);
      const unitTable = valuesOf(await calculate(world.page, `=RENT.UNITS(${compSetId})`));
      expect(unitTable).toHaveLength(units.data.length + 1);
      expect(column(unitTable, "id")).toEqual(units.data.map((unit) => unit.id));
      expect(column(unitTable, "min_rent")).toEqual(
        units.data.map((unit) => orEmpty(unit.attributes.min_rent)),
      );

      const plans = await raw.get<{
        data: { attributes: { floor_plans_by_bed_bath?: Buckets; floor_plans_by_bed?: Buckets } };
      }>(`/comp_sets/${compSetId}/floor_plans`);
      const { attributes } = plans.data;
      const buckets = attributes.floor_plans_by_bed_bath ?? attributes.floor_plans_by_bed ?? [];
      const flat = buckets.flatMap((bucket) => bucket.floor_plans);
      const planTable = valuesOf(await calculate(world.page, `=RENT.FLOORPLANS(${compSetId})`));
      expect(planTable).toHaveLength(flat.length + 1);
      expect(column(planTable, "name")).toEqual(flat.map((plan) => plan.name));
      expect(column(planTable, "collected_at")).toEqual(
        flat.map((plan) => {
          const [day] = plan.asking_rent_over_time as { collected_at: string }[];
          // A point may be dated by the end of its day in UTC (the examples variant): the cell is the day.
          return isoToSerial(day?.collected_at.slice(0, 10) ?? "");
        }),
      );
    });

    it("RENT.BOUNDARIES, RENT.BOUNDARY, and RENT.MARKET of a nested RENT.BOUNDARY", async () => {
      const found = await raw.post<{ data: Envelope<{ id: number; centroid: [number, number] }>[] }>(
        "/geo_boundaries/search",
        { account_id: accountId, query: "Austin", geo_type: ["MSA", "BespokeSubmarket"], limit: 10 },
      );
      const table = valuesOf(
        await calculate(world.page, '=RENT.BOUNDARIES("Austin", "MSA, BespokeSubmarket")'),
      );
      expect(table).toHaveLength(found.data.length + 1);
      expect(column(table, "id")).toEqual(found.data.map((entry) => entry.attributes.id));
      expect(column(table, "latitude")).toEqual(found.data.map((entry) => entry.attributes.centroid[0]));

      expect(valuesOf(await calculate(world.page, '=RENT.BOUNDARY("Austin", "MSA")'))).toEqual([[msaId]]);

      const markets = await raw.post<{ data: Envelope<Attributes>[] }>("/explore_markets", {
        account_id: accountId,
        market_filters: { geo_type: "MSA", geo_boundary_ids: [msaId] },
        limit: 1,
      });
      const rent = markets.data[0]?.attributes.rent_avg_t30;
      expect(typeof rent).toBe("number");
      expect(
        valuesOf(await calculate(world.page, '=RENT.MARKET(RENT.BOUNDARY("Austin", "MSA"), "rent_avg_t30")')),
      ).toEqual([[rent]]);
    });

    it("RENT.MARKETS and RENT.NARRATIVE", async () => {
      const ranked = await raw.post<{ data: Envelope<Attributes>[] }>("/explore_markets", {
        account_id: accountId,
        market_filters: { geo_type: "MSA" },
        sort: "rent_avg_t30",
        sort_direction: "desc",
        limit: 5,
      });
      const table = valuesOf(await calculate(world.page, '=RENT.MARKETS("rent_avg_t30", "limit=5")'));
      expect(table).toEqual([
        ["id", "name", "geo_type", "rent_avg_t30"],
        ...ranked.data.map(({ attributes: m }) => [m.id, m.name, m.geo_type, orEmpty(m.rent_avg_t30)]),
      ]);

      const narratives = await raw.get<{ data: Envelope<Record<string, string>>[] }>("/markets/narratives", {
        account_id: accountId,
        geo_boundary_id: msaId,
      });
      expect(valuesOf(await calculate(world.page, `=RENT.NARRATIVE(${msaId}, "rent")`))).toEqual([
        [narratives.data[0]?.attributes.rent],
      ]);
    });

    it("RENT.PROPERTY over cell references, recalculated when a referenced cell changes", async () => {
      const fields = ["property_name", "asking_rent"];
      const [first, second, third] = austinIds as [number, number, number];
      const records = async (ids: number[]) =>
        (
          await raw.get<{ data: Envelope<Attributes>[] }>("/properties/bulk_details", {
            account_id: accountId,
            property_ids: ids.join(","),
          })
        ).data;
      const expected = (found: Envelope<Attributes>[], ids: number[]) =>
        ids.map((id) => {
          const attributes = found.find((record) => Number(record.id) === id)?.attributes ?? {};
          return fields.map((field) => orEmpty(attributes[field]));
        });

      const sheet = await newSheet(world.page);
      await typeInto(world.page, "B1", fields[0] as string);
      await typeInto(world.page, "C1", fields[1] as string);
      await typeInto(world.page, "A2", String(first));
      await typeInto(world.page, "A3", String(second));
      await typeInto(world.page, "B2", "=RENT.PROPERTY(A2:A3, B1:C1)");
      expect(valuesOf(await shownAt(world.page, sheet, "B2"))).toEqual(
        expected(await records([first, second]), [first, second]),
      );

      await typeInto(world.page, "A3", String(third));
      await world.page.waitForFunction(
        (id) => document.querySelector('#grid td[data-address="A3"]')?.textContent === String(id),
        third,
      );
      expect(valuesOf(await shownAt(world.page, sheet, "B2"))).toEqual(
        expected(await records([first, third]), [first, third]),
      );
    });

    it("RENT.PROPERTIES and RENT.LOOKUP", async () => {
      const listed = await raw.post<{ data: Envelope<Attributes>[] }>("/geo_boundaries/properties", {
        account_id: accountId,
        geo_boundary_ids: [msaId],
        per_page: 40,
      });
      const table = valuesOf(
        await calculate(
          world.page,
          `=RENT.PROPERTIES(${msaId}, "property_id, asking_rent", "max_results=40")`,
        ),
      );
      expect(table).toEqual([
        ["property_id", "asking_rent"],
        ...listed.data.map(({ attributes }) => [attributes.property_id, orEmpty(attributes.asking_rent)]),
      ]);

      const ids = await raw.get<{ data: number[] }>("/properties/lookup", {
        account_id: accountId,
        city: "Austin",
        per_page: 25,
      });
      expect(valuesOf(await calculate(world.page, '=RENT.LOOKUP("city=Austin; max_results=25")'))).toEqual([
        ["property_id"],
        ...ids.data.map((id) => [id]),
      ]);
    });

    it("RENT.FORECAST and RENT.GEOFORECAST", async () => {
      const series = async (path: string, fields: string[], aggregation: string, interval: string) =>
        (
          await raw.post<{ data: { attributes: { time_series: Series } } }>(path, {
            account_id: accountId,
            aggregations: fields.map((field) => ({ name: field, field, aggregation_type: aggregation })),
            interval,
          })
        ).data.attributes.time_series;
      // Forecast occupancy comes in points (openapi.yaml x-field-units); a cell holds every percent as a fraction.
      const asCell = (field: string, value: number | null | undefined) =>
        field.startsWith("occupancy") && typeof value === "number"
          ? Math.round((value / 100) * 1e10) / 1e10
          : orEmpty(value);
      // A quarter or a year also says which months of it the window holds, by the service's monthly answer.
      const covers = ["covers_from", "covers_to", "months_covered"];
      const asRows = (rows: Series, fields: string[], months: Series, bucketMonths: number) =>
        rows.map((row) => [
          isoToSerial(row.date),
          ...fields.map((field) => asCell(field, row.values[field])),
          ...monthsCovered(
            months.map((month) => month.date),
            row.date,
            bucketMonths,
          ),
        ]);

      // A property with a forecast (the sandbox, like the service, has none for some).
      const propertyFields = ["rent_growth_rate_yoy", "occupancy_percent"];
      let propertyId = 0;
      let propertySeries: Series = [];
      for (const id of austinIds) {
        propertyId = id;
        propertySeries = await series(`/properties/${id}/forecasts`, propertyFields, "avg", "quarter");
        if (propertySeries.some((row) => row.values.rent_growth_rate_yoy !== null)) break;
      }
      expect(
        valuesOf(
          await calculate(
            world.page,
            `=RENT.FORECAST(${propertyId}, "${propertyFields.join(", ")}", "avg", "quarter")`,
          ),
        ),
      ).toEqual([
        ["date", ...propertyFields, ...covers],
        ...asRows(
          propertySeries,
          propertyFields,
          await series(`/properties/${propertyId}/forecasts`, propertyFields, "avg", "month"),
          3,
        ),
      ]);

      const geoPath = `/geo_boundary/${msaId}/forecasts`;
      const geoSeries = await series(geoPath, ["rent_growth_yoy"], "max", "year");
      const geoTable = valuesOf(
        await calculate(world.page, `=RENT.GEOFORECAST(${msaId}, "rent_growth_yoy", "max", "year")`),
      );
      expect(geoTable).toEqual([
        ["date", "rent_growth_yoy", ...covers],
        ...asRows(
          geoSeries,
          ["rent_growth_yoy"],
          await series(geoPath, ["rent_growth_yoy"], "max", "month"),
          12,
        ),
      ]);
      expect(geoTable.length).toBeGreaterThanOrEqual(6);
    });
  });

  describe("bad input", () => {
    it("shows #VALUE! for a bad argument and #N/A for no data, with the add-in's message", async () => {
      expect(await calculate(world.page, '=RENT.PROPERTY(0, "asking_rent")')).toEqual([
        [{ value: "#VALUE!", errorMessage: "property_id must be a positive whole number (an id), not 0." }],
      ]);
      expect(await calculate(world.page, `=RENT.MARKET(${msaId}, "rent_avg_t3")`)).toEqual([
        [{ value: "#VALUE!", errorMessage: 'Unknown metric "rent_avg_t3". Did you mean "rent_avg_t30"?' }],
      ]);
      expect(await calculate(world.page, '=RENT.BOUNDARY("Zzyzxqq")')).toEqual([
        [{ value: "#N/A", errorMessage: 'No place named "Zzyzxqq".' }],
      ]);
    });

    it("shows the error in the grid, with its message on hover", async () => {
      const sheet = await newSheet(world.page);
      await typeInto(world.page, "A1", '=RENT.SURVEY(1, "avg_rent")');
      const [[shown]] = (await shownAt(world.page, sheet, "A1")) as [
        [{ value: string; errorMessage?: string }],
      ];
      expect(shown.value).toBe("#N/A");
      const cell = world.page.locator('#grid td[data-address="A1"].error');
      await cell.waitFor();
      await expect(cell.textContent()).resolves.toBe("#N/A");
      await expect(cell.getAttribute("title")).resolves.toBe(shown.errorMessage);
      await expect(cell.getAttribute("class")).resolves.toContain("error");
    });
  });
});
