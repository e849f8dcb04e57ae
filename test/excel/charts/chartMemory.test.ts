import { sameChart, type RememberedChart } from "../../../src/excel/charts/chartMemory";

describe("sameChart", () => {
  const chart: RememberedChart = { name: "Chart 1", sheetName: "Model", anchor: "B3", kind: "history" };

  it("is the chart of that name on that sheet, whatever the case of the sheet's name", () => {
    expect(sameChart(chart, { name: "Chart 1", sheetName: "MODEL" })).toBe(true);
  });

  it("is another chart under the same name on another sheet (Excel names charts per sheet), or another name", () => {
    expect(sameChart(chart, { name: "Chart 1", sheetName: "Comps" })).toBe(false);
    expect(sameChart(chart, { name: "Chart 2", sheetName: "Model" })).toBe(false);
  });
});
