import { unitsToTable, type UnitEnvelope } from "../../src/tables/unitRecords";
import { isoDateToSerial, isoTimestampToSerial } from "../../src/tables/excelDates";
import { parsedContract } from "../support/parsedContract";

const unit: UnitEnvelope = {
  id: "99030676_021621",
  type: "unit",
  attributes: {
    property_id: 99030676,
    subject_property: false,
    property_name: "The Residences",
    is_leased: false,
    year_built: 2015,
    unit_name: "021621",
    floorplan_name: "A1",
    is_trucomp: true,
    status: "available",
    days_on_market: 12,
    date_available: "2026-12-01",
    last_rent_change_date: "2026-11-01",
    date_leased: null,
    bedroom_count: 1,
    bathroom_count: 1.5,
    min_rent: 1850,
    sq_ft: 720,
    avg_rent_per_sq_ft: 2.57,
    last_rent_change: "-$25",
    rent_changes_last_30_days: 2,
    net_effective_rent: 1700.5,
    all_in_rent: 1950,
    trucomp_rent_differential: -35,
    concessions: {
      id: 7,
      property_id: 99030676,
      expires_at: "2026-12-31T23:59:00Z",
      updated_at: "2026-11-20T10:00:00Z",
      updated_at_formatted: "Nov 20, 2026",
      display_text: "6 weeks free",
      rent_concessions: [
        {
          display_text: "6 weeks free",
          restrictions: ["12-month lease"],
          expires_on_date: "2026-12-31",
          subject: "rent",
          type_value: 1.5,
          details: "",
        },
      ],
      non_rent_concessions: [
        { display_text: "Waived admin fee", restrictions: [], subject: "fee", type_value: 250 },
      ],
    },
    amenity_names: {
      Views: ["City view", "Skyline"],
      "Washer/Dryer": ["In unit"],
      Dishwasher: [],
      "Rooftop Garden": ["Shared"],
    },
  },
};

const bare: UnitEnvelope = {
  id: "1_1",
  attributes: { property_id: 1, unit_name: "101", min_rent: null, concessions: null, amenity_names: {} },
};

describe("unitsToTable", () => {
  const table = unitsToTable([unit, bare]);
  const column = (field: string) => table.columns.findIndex((c) => c.field === field);
  const cell = (row: number, field: string) => table.rows[row]?.[column(field)];

  it("keeps every field, in the contract's order, with readable headers", () => {
    const fields = table.columns.map((c) => c.field);
    expect(fields.slice(0, 4)).toEqual(["id", "property_id", "subject_property", "property_name"]);
    expect(fields).toContain("trucomp_rent_differential");
    expect(table.columns[column("avg_rent_per_sq_ft")]?.header).toBe("Avg rent per sf");
    expect(table.columns[column("id")]?.header).toBe("Id");
    expect(table.rows.every((row) => row.length === table.columns.length)).toBe(true);
  });

  it("orders a unit's columns as the contract orders UnitAttributes, whatever order the answer sent", () => {
    const contract = parsedContract();
    const contractFields = Object.keys(contract.components.schemas.UnitAttributes.properties as object);
    const reversed: UnitEnvelope = {
      id: "2_2",
      attributes: Object.fromEntries(
        [...contractFields]
          .reverse()
          .map((field) => [field, field === "amenity_names" ? { Views: ["Park"] } : 1]),
      ),
    };
    const fields = unitsToTable([reversed]).columns.map((c) => c.field);
    const concessionColumns = ["concessions", "rent_concessions", "non_rent_concessions"];
    const expected = [
      "id",
      ...contractFields.flatMap((field) =>
        field === "concessions"
          ? [...concessionColumns, "concessions_expires_at", "concessions_updated_at"]
          : field === "amenity_names"
            ? ["amenities_Views"]
            : [field],
      ),
    ];
    expect(fields).toEqual(expected);
  });

  it("flattens concessions into a summary, readable lists and timestamps", () => {
    expect(cell(0, "concessions")).toBe("6 weeks free");
    expect(cell(0, "rent_concessions")).toBe("6 weeks free (expires 2026-12-31; 12-month lease)");
    expect(cell(0, "non_rent_concessions")).toBe("Waived admin fee");
    expect(cell(0, "concessions_expires_at")).toBe(isoTimestampToSerial("2026-12-31T23:59:00Z"));
    expect(table.columns[column("concessions_expires_at")]?.kind).toBe("timestamp");
    expect(cell(1, "rent_concessions")).toBe("");
  });

  it("gives each amenity category its own column, unknown categories included", () => {
    expect(table.columns[column("amenities_Views")]?.header).toBe("Amenities: Views");
    expect(cell(0, "amenities_Views")).toBe("City view; Skyline");
    expect(cell(0, "amenities_Washer/Dryer")).toBe("In unit");
    expect(cell(0, "amenities_Dishwasher")).toBe("");
    expect(cell(0, "amenities_Rooftop Garden")).toBe("Shared");
    expect(column("amenity_names")).toBe(-1);
  });

  it("types the cells: numbers stay numbers, dates become Excel serials, null becomes empty", () => {
    expect(cell(0, "min_rent")).toBe(1850);
    expect(table.columns[column("min_rent")]?.kind).toBe("currency");
    expect(cell(1, "min_rent")).toBe("");
    expect(cell(0, "date_available")).toBe(isoDateToSerial("2026-12-01"));
    expect(table.columns[column("date_available")]?.kind).toBe("date");
    expect(cell(0, "unit_name")).toBe("021621");
    expect(table.columns[column("unit_name")]?.kind).toBe("text");
    expect(table.columns[column("bathroom_count")]?.kind).toBe("number");
    expect(table.columns[column("bedroom_count")]?.kind).toBe("integer");
    expect(table.columns[column("property_id")]?.kind).toBe("identifier");
    expect(table.columns[column("year_built")]?.kind).toBe("year");
    expect(cell(0, "is_leased")).toBe(false);
    expect(table.columns[column("is_leased")]?.kind).toBe("boolean");
  });
});
