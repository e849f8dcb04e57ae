import { floorPlansToTable, marketSurveyToTable } from "../../src/tables/compSetTables";
import { NUMBER_FORMAT_BY_KIND } from "../../src/tables/columnKinds";
import { isoDateToSerial } from "../../src/tables/excelDates";

describe("marketSurveyToTable", () => {
  const items = [
    {
      property_name: "Subject Tower",
      property_id: 10,
      subject_property: true,
      avg_rent: 1850.25,
      exposure: { current: 5.5, next_30_days: 7.1 },
      review: { average_rating: 4.2, review_count: 120 },
      amenities: ["Pool", "Dog park"],
      fees_and_deposits: { admin: { min: 100, max: 150 }, application: { min: 50, max: 50 } },
      leased_percent: 94.5,
    },
    {
      property_name: "Comp One",
      property_id: 11,
      subject_property: false,
      avg_rent: 1790,
      exposure: { current: 4, next_30_days: 6 },
      review: { average_rating: 3.9, review_count: 40 },
      amenities: [],
      fees_and_deposits: {},
      leased_percent: 96,
    },
  ];
  const table = marketSurveyToTable(items, { avg_rent: 1790, exposure: { current: 4, next_30_days: 6 } });
  const column = (field: string) => table.columns.findIndex((c) => c.field === field);

  it("puts identity first and flattens nested groups into their own columns", () => {
    expect(table.columns.slice(0, 3).map((c) => c.field)).toEqual([
      "property_id",
      "property_name",
      "subject_property",
    ]);
    expect(table.columns[column("exposure_next_30_days")]?.header).toBe("Exposure, next 30 d");
    expect(table.rows[0]?.[column("exposure_current")]).toBe(5.5);
    expect(table.rows[0]?.[column("review_review_count")]).toBe(120);
  });

  it("writes lists as readable text and fees by kind as their own columns", () => {
    expect(table.rows[0]?.[column("amenities")]).toBe("Pool; Dog park");
    expect(table.rows[0]?.[column("fees_and_deposits_admin_max")]).toBe(150);
    expect(table.rows[0]?.[column("fees_and_deposits_application_min")]).toBe(50);
    expect(table.rows[1]?.[column("fees_and_deposits_admin_min")]).toBe("");
  });

  it("adds the comps' average as a last row and types the columns", () => {
    expect(table.rows).toHaveLength(3);
    expect(table.rows[2]?.[column("property_name")]).toBe("Comp average");
    expect(table.rows[2]?.[column("property_id")]).toBe("");
    expect(table.columns[column("avg_rent")]?.kind).toBe("currency");
    expect(table.columns[column("leased_percent")]?.kind).toBe("percent");
  });
});

describe("a survey in the person's words", () => {
  const item = (name: string, units: number, stories: number, built: number) => ({
    property_name: name,
    total_units: units,
    number_of_stories: stories,
    year_built: built,
    apartmentiq_property_type: "Conventional",
    is_trucomp: true,
  });
  // The comps' average, as the service sends it: averages of whole things.
  const table = marketSurveyToTable([item("A", 112, 4, 1985), item("B", 121, 5, 1994)], {
    total_units: 116.375,
    number_of_stories: 4.5714,
    year_built: 1989.4286,
  });
  const column = (field: string) => table.columns.find((candidate) => candidate.field === field);
  const averageRow = table.rows.at(-1) as readonly unknown[];
  const averageOf = (field: string) => averageRow[table.columns.findIndex((c) => c.field === field)];

  it("shows whole counts whole and a year as a year, the average rounded as the thing is", () => {
    expect(column("total_units")?.kind).toBe("integer");
    expect(column("number_of_stories")?.kind).toBe("integer");
    expect(column("year_built")?.kind).toBe("year");
    expect(NUMBER_FORMAT_BY_KIND.integer).toBe("#,##0");
    expect(averageOf("total_units")).toBe(116);
    expect(averageOf("number_of_stories")).toBe(5);
    expect(averageOf("year_built")).toBe(1989);
  });

  it("heads its columns with the contract's labels, not the vendor's field names", () => {
    expect(column("apartmentiq_property_type")?.header).toBe("Property type");
    expect(column("is_trucomp")?.header).toBe("TruComp");
    expect(column("total_units")?.header).toBe("Total units");
    expect(column("year_built")?.header).toBe("Year built");
  });
});

describe("floorPlansToTable", () => {
  it("makes one row per floor plan row, identity first", () => {
    const plan = (name: string, bedrooms: number) => ({
      property_id: 10,
      property_name: "Subject Tower",
      subject_property: true,
      name,
      collected_at: "2026-11-20",
      bedroom_count: bedrooms,
      bathroom_count: 1,
      asking_rent: 1500 + bedrooms * 400,
      sqft: 600 + bedrooms * 250,
      days_on_market: 12.5,
    });
    const table = floorPlansToTable([plan("S1", 0), plan("A1", 1), plan("A2", 1)]);

    expect(table.rows.map((row) => row[table.columns.findIndex((c) => c.field === "name")])).toEqual([
      "S1",
      "A1",
      "A2",
    ]);
    const kinds = Object.fromEntries(table.columns.map((c) => [c.field, c.kind]));
    expect(kinds).toMatchObject({
      collected_at: "date",
      asking_rent: "currency",
      sqft: "integer",
      days_on_market: "number",
    });
    expect(table.rows[0]?.[table.columns.findIndex((c) => c.field === "collected_at")]).toBe(
      isoDateToSerial("2026-11-20"),
    );
  });
});
