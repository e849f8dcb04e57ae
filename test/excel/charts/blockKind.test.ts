import { CHARTED_FUNCTIONS, chartKindOf } from "../../../src/excel/charts/blockKind";

describe("chartKindOf", () => {
  it("charts a block by the RENT function its formula calls first, in any case", () => {
    expect(chartKindOf('=RENT.HISTORY(A2:A4, "avg_rent", D1, D2)')).toBe("history");
    expect(chartKindOf("=rent.floorplanhistory(9)")).toBe("history");
    expect(chartKindOf('=RENT.FORECAST(A2, "rent")')).toBe("forecast");
    expect(chartKindOf('=RENT.GEOFORECAST(RENT.BOUNDARY("Austin", "MSA"))')).toBe("forecast");
    expect(chartKindOf("=RENT.MARKETS(A2:A9)")).toBe("comparison");
    expect(chartKindOf("=RENT.UNITS(B4)")).toBe("rentBySize");
    expect(chartKindOf("=IFERROR(RENT.SURVEY(B4), 0)")).toBe("rentBySize");
  });

  it("charts nothing for a block of another function, or a formula with none", () => {
    expect(chartKindOf('=RENT.PROPERTY(A2:A9, "unit_count")')).toBeUndefined();
    expect(chartKindOf('=RENT.BOUNDARY("Austin", "MSA")')).toBeUndefined();
    expect(chartKindOf("=SUM(A1:A9)")).toBeUndefined();
  });

  it("names every function it charts", () => {
    expect(CHARTED_FUNCTIONS).toEqual([
      "RENT.HISTORY",
      "RENT.FLOORPLANHISTORY",
      "RENT.FORECAST",
      "RENT.GEOFORECAST",
      "RENT.MARKETS",
      "RENT.UNITS",
      "RENT.SURVEY",
    ]);
  });
});
