import { percentsAsFractions } from "../../src/tables/exportPercents";

describe("an export file written in points", () => {
  it("leaves a column the contract says is a fraction as it is, even a value above 1", () => {
    // Occupancy and exposure in points; concession and rent growth are fractions by the contract (x-sent-as),
    // and a growth of 120 % is 1.2 as a fraction: judged on its values it would look like points.
    const columns = [
      "property_id",
      "advertised_occupancy_percent",
      "concession_percent_0_bed",
      "rent_growth_rate_yoy_avg",
    ];
    const rows = [
      [100001, 95.1, 0.04, 0.031],
      [100002, 91.5, 0.06, 1.2],
    ];
    expect(percentsAsFractions(columns, rows)).toEqual([
      [100001, 0.951, 0.04, 0.031],
      [100002, 0.915, 0.06, 1.2],
    ]);
  });

  it("judges a file without an occupancy column column by column", () => {
    // Exposure in points beside a share the contract leaves open written as a fraction, and a column the
    // contract does not know whose name says percent, in points.
    const columns = ["property_id", "exposure_percent", "concession_pct", "renewal_pct"];
    const rows = [
      [100001, 6.2, 0.04, 55],
      [100002, 9.75, 0.5, 61.5],
    ];
    expect(percentsAsFractions(columns, rows)).toEqual([
      [100001, 0.062, 0.04, 0.55],
      [100002, 0.0975, 0.5, 0.615],
    ]);
  });

  it("takes a column whose every value is 1 as a fraction (100 %), and leaves text, nulls and other columns", () => {
    const columns = ["property_id", "leased_percent", "name"];
    const rows = [
      [100001, 1, "Harbor Lofts"],
      [100002, null, "Maple Court"],
    ];
    expect(percentsAsFractions(columns, rows)).toEqual(rows);
  });
});
