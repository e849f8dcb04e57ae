import {
  jobRequestOf,
  propertyIdsFromCells,
  readPropertyEntries,
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

/** Ids only: a name reaching this resolver fails the test. */
const noNames = (name: string) => Promise.reject(new Error(`asked to resolve "${name}"`));

describe("the job form", () => {
  it("becomes the contract's request: ids de-duplicated, no callback when none is typed", async () => {
    await expect(jobRequestOf(form, noNames)).resolves.toEqual({
      report_type: "floorplans",
      output_format: "parquet",
      start_date: "2026-01-01",
      end_date: "2026-01-31",
      property_ids: [100001, 100002, 100003],
    });
    const withCallback = await jobRequestOf(
      { ...form, callbackUrl: " https://hooks.example.com/rent " },
      noNames,
    );
    expect(withCallback.callback_url).toBe("https://hooks.example.com/rent");
  });

  it("names each problem", async () => {
    const refused = (changed: Partial<JobForm>) =>
      expect(jobRequestOf({ ...form, ...changed }, noNames)).rejects;
    await refused({ endDate: "31/01/2026" }).toThrow("End date must be a date like");
    await refused({ startDate: "2026-02-01" }).toThrow("must not be after");
    await refused({ propertyIds: " " }).toThrow("Enter property ids or names");
    await refused({ propertyIds: "12.5" }).toThrow('"12.5" is not a property id');
    await refused({ callbackUrl: "ftp://x" }).toThrow("callback URL must start with");
    const tooMany = Array.from({ length: 1001 }, (_, i) => 100001 + i).join(",");
    await refused({ propertyIds: tooMany }).toThrow("at most 1000");
  });

  it("reads ids, and names or addresses one a line, from typed text", async () => {
    expect(readPropertyEntries("  7  8,9 ")).toEqual([7, 8, 9]);
    expect(readPropertyEntries("")).toEqual([]);
    const typed = "100001, 100002\nMill Creek, Austin; 1200 Elm St, Austin, TX\n100001";
    expect(readPropertyEntries(typed)).toEqual([
      100001,
      100002,
      "Mill Creek, Austin",
      "1200 Elm St, Austin, TX",
    ]);
    const asked: string[] = [];
    const resolveName = (name: string) => {
      asked.push(name);
      return Promise.resolve(name.startsWith("Mill") ? 100002 : 100003);
    };
    const body = await jobRequestOf({ ...form, propertyIds: typed }, resolveName);
    expect(body.property_ids).toEqual([100001, 100002, 100003]);
    expect(asked).toEqual(["Mill Creek, Austin", "1200 Elm St, Austin, TX"]);
  });

  it("reads ids from selected cells, skipping blanks and a header", () => {
    expect(propertyIdsFromCells([["property_id"], [100001], [""], ["100002"], [100001]])).toEqual([
      100001, 100002,
    ]);
    expect(() => propertyIdsFromCells([[100001], ["n/a"]])).toThrow('"n/a", which is not a property id');
  });
});
