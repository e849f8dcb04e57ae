/**
 * The pane's job form offers the contract's report types and output formats, no more and no fewer: its options
 * are written in taskpane.html, so this holds them to the generated enum values.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { outputFormatValues, reportTypeValues } from "../../src/api/schema";

const page = readFileSync(join(__dirname, "..", "..", "src", "taskpane", "taskpane.html"), "utf8");

function optionsOf(selectId: string): string[] {
  const select = new RegExp(`<select id="${selectId}">([\\s\\S]*?)</select>`).exec(page)?.[1] ?? "";
  return [...select.matchAll(/<option value="([^"]*)"/g)].map((match) => match[1] ?? "");
}

describe("the job form", () => {
  it("offers every report type of the contract", () => {
    expect(optionsOf("job-report-type").sort()).toEqual([...reportTypeValues].sort());
  });

  it("offers every output format of the contract", () => {
    expect(optionsOf("job-format").sort()).toEqual([...outputFormatValues].sort());
  });
});
