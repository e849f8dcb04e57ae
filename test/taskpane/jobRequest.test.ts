import {
  jobRequestOf,
  parsePropertyIds,
  propertyIdsFromCells,
  type JobForm,
} from "../../src/taskpane/jobRequest";

const form: JobForm = {
  reportType: "floorplans",
  outputFormat: "parquet",
  startDate: "2026-01-01",
  endDate: "2026-01-31",
  propertyIds: "100001, 100002;100003\n100001",
  callbackUrl: "",
};

describe("the job form", () => {
  it("becomes the contract's request: ids de-duplicated, no callback when none is typed", () => {
    expect(jobRequestOf(form)).toEqual({
      report_type: "floorplans",
      output_format: "parquet",
      start_date: "2026-01-01",
      end_date: "2026-01-31",
      property_ids: [100001, 100002, 100003],
    });
    expect(jobRequestOf({ ...form, callbackUrl: " https://hooks.example.com/rent " }).callback_url).toBe(
      "https://hooks.example.com/rent",
    );
  });

  it("names each problem", () => {
    expect(() => jobRequestOf({ ...form, endDate: "31/01/2026" })).toThrow("End date must be a date like");
    expect(() => jobRequestOf({ ...form, startDate: "2026-02-01" })).toThrow("must not be after");
    expect(() => jobRequestOf({ ...form, propertyIds: " " })).toThrow("Enter property ids");
    expect(() => jobRequestOf({ ...form, propertyIds: "12.5" })).toThrow('"12.5" is not a property id');
    expect(() => jobRequestOf({ ...form, callbackUrl: "ftp://x" })).toThrow("callback URL must start with");
    const tooMany = Array.from({ length: 1001 }, (_, i) => 100001 + i).join(",");
    expect(() => jobRequestOf({ ...form, propertyIds: tooMany })).toThrow("at most 1000");
  });

  it("reads ids from typed text", () => {
    expect(parsePropertyIds("  7  8,9 ")).toEqual([7, 8, 9]);
    expect(parsePropertyIds("")).toEqual([]);
  });

  it("reads ids from selected cells, skipping blanks and a header", () => {
    expect(propertyIdsFromCells([["property_id"], [100001], [""], ["100002"], [100001]])).toEqual([
      100001, 100002,
    ]);
    expect(() => propertyIdsFromCells([[100001], ["n/a"]])).toThrow('"n/a", which is not a property id');
  });
});
