/** An export's sheet is named as a person would name it: what it holds and its days, never the job's id. */
import { uniqueSheetName } from "../../src/excel/sheetNames";
import { jobSheetName } from "../../src/taskpane/jobsController";

const job = (report_type: "property" | "units" | "floorplans", start_date: string, end_date: string) => ({
  report_type,
  job_id: "35fbdca7-9c1e-4d7a-a0b2-6f1e2d3c4b5a",
  start_date,
  end_date,
});

it("names a job's sheet by what it holds and the days it covers, within Excel's 31 characters", () => {
  expect(jobSheetName(job("property", "2026-11-28", "2026-11-28"))).toBe("Properties 2026-11-28");
  expect(jobSheetName(job("units", "2026-01-01", "2026-03-31"))).toBe("Units 2026-01-01 to 03-31");
  expect(jobSheetName(job("floorplans", "2025-11-01", "2026-03-31"))).toBe("Floor plans 2025-11 to 2026-03");
  for (const name of [
    jobSheetName(job("floorplans", "2026-01-01", "2026-03-31")),
    jobSheetName(job("floorplans", "2025-11-01", "2026-03-31")),
  ]) {
    expect(name).not.toMatch(/35fbdca7/);
    expect(Array.from(name).length).toBeLessThanOrEqual(31);
  }
});

it("makes a second export of the same days unique without an id", () => {
  const name = jobSheetName(job("property", "2026-11-28", "2026-11-28"));
  expect(uniqueSheetName(name, ["Sheet1", name])).toBe("Properties 2026-11-28 (2)");
});
