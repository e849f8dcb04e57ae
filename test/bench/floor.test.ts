/** The request floor the workbook benchmark compares against: counted from a description, by the contract's limits. */
import { MAX_BULK_DETAILS_IDS, MAX_EXPLORE_MARKETS } from "../../src/api/contractLimits";
import { ENDPOINTS, requestFloor } from "./floor";
import type { WorkbookCell } from "./referenceWorkbook";

const ids = (count: number, first = 100_001) => Array.from({ length: count }, (_, index) => first + index);
const floorOf = (cells: WorkbookCell[]) => requestFloor({ accountId: 100, cells });

it("counts one bulk details call per 200 distinct ids, whatever the fields or the cells", () => {
  const cells: WorkbookCell[] = [
    ...ids(MAX_BULK_DETAILS_IDS + 1).map((id): WorkbookCell => ({
      fn: "PROPERTY",
      ids: [id],
      fields: ["a"],
    })),
    { fn: "PROPERTY", ids: ids(50), fields: ["b", "c"] },
  ];
  expect(floorOf(cells)).toEqual(expect.objectContaining({ total: 2 }));
  expect(floorOf(cells).byEndpoint[ENDPOINTS.bulkDetails]).toBe(2);
});

it("counts explore markets calls of up to 100 boundaries, MSAs and submarkets together", () => {
  const market = (id: number, geoType: "MSA" | "BespokeSubmarket"): WorkbookCell => ({
    fn: "MARKET",
    boundary: { id, geoType },
    metric: "rent_avg_t30",
  });
  const msas = ids(MAX_EXPLORE_MARKETS + 1, 1).map((id) => market(id, "MSA"));
  expect(floorOf([...msas, market(5000, "BespokeSubmarket"), market(5000, "BespokeSubmarket")]).total).toBe(
    2,
  );
});

it("merges a target's forecast fields into one call and counts unbatchable requests once each", () => {
  const cells: WorkbookCell[] = [
    { fn: "FORECAST", propertyId: 1, fields: ["rent_growth_rate_yoy"] },
    { fn: "FORECAST", propertyId: 1, fields: ["occupancy_percent", "rent_growth_rate_yoy"] },
    { fn: "GEOFORECAST", boundaryId: 7, fields: ["rent_growth_yoy"] },
    { fn: "NARRATIVE", boundaryId: 7, section: "rent" },
    { fn: "NARRATIVE", boundaryId: 7, section: "all" },
    { fn: "UNITS", compSetId: 10001 },
    { fn: "UNITS", compSetId: 10001 },
    { fn: "SURVEY", compSetId: 10001 },
  ];
  expect(floorOf(cells).byEndpoint).toEqual({
    [ENDPOINTS.bulkDetails]: 0,
    [ENDPOINTS.exploreMarkets]: 0,
    [ENDPOINTS.propertyForecast]: 1,
    [ENDPOINTS.boundaryForecast]: 1,
    [ENDPOINTS.units]: 1,
    [ENDPOINTS.survey]: 1,
    [ENDPOINTS.narratives]: 1,
  });
});
