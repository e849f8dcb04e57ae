import { percentsAsFractions } from "../../src/tables/exportPercents";

describe("an export file's percent columns as fractions", () => {
  it("judges each open-scale column on its own values, not on the file's occupancy", () => {
    // Occupancy in points beside a concession share as a fraction: scales differ per field (api-notes, third pass).
    const columns = ["id", "advertised_occupancy_pct", "concession_pct", "exposure_pct"];
    const rows = [
      [100001, 95.1, 0.04, 6.2],
      [100002, 91.5, 0, 9.75],
    ];
    expect(percentsAsFractions(columns, rows)).toEqual([
      [100001, 0.951, 0.04, 0.062],
      [100002, 0.915, 0, 0.0975],
    ]);
  });
});
