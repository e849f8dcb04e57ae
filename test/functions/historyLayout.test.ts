/**
 * The history layouts without a service: the reader the pane's charts use (shape/historyLayout.ts) on headers it
 * must and must not take for a history block, the wide grid's empty cell where the long table has no row for a
 * period, and the column bound of a sheet. The layouts against the sandbox: historyWide.sandbox.test.ts and
 * floorPlanHistory.sandbox.test.ts.
 */
import { shapeTable } from "../../src/tables/tableData";
import { isoToSerial } from "../../src/tables/excelDates";
import { checkWideColumns, wideSpillFromTable } from "../../src/functions/shape/historyGrid";
import { historyBlockLayout, historySeries } from "../../src/functions/shape/historyLayout";
import { toCellError } from "../../src/functions/cellErrors";

const [JAN, FEB] = [isoToSerial("2026-01-31") as number, isoToSerial("2026-02-28") as number];

describe("historyBlockLayout", () => {
  it("reads a wide header's periods, whether dates come as numbers or as formatted values", () => {
    const formatted = (value: number) => ({
      type: "FormattedNumber",
      basicValue: value,
      numberFormat: "yyyy-mm-dd",
    });
    expect(historyBlockLayout("HISTORY", ["id", "field", JAN, formatted(FEB)])).toEqual({
      layout: "wide",
      keyColumns: [0],
      fieldColumn: 1,
      periodColumns: [2, 3],
      periods: [JAN, FEB],
    });
    expect(historyBlockLayout("HISTORY", ["date", "id", "avg_rent", "avg_ner"])).toEqual({
      layout: "long",
      dateColumn: 0,
      keyColumns: [1],
      fieldColumns: [2, 3],
    });
  });

  it("takes nothing else for a history block", () => {
    // A cell still waiting, or an error's grid; a header without a field; a date among the keys; a text period.
    expect(historyBlockLayout("HISTORY", ["export running, about 4 min"])).toBeUndefined();
    expect(historyBlockLayout("HISTORY", ["date", "id"])).toBeUndefined();
    expect(historyBlockLayout("HISTORY", [JAN, "field", FEB])).toBeUndefined();
    expect(historyBlockLayout("HISTORY", ["id", "field", JAN, "2026-02-28"])).toBeUndefined();
    expect(historyBlockLayout("HISTORY", ["id", "", JAN])).toBeUndefined();
    // RENT.FLOORPLANHISTORY has five key columns: a RENT.HISTORY wide header is too short for one.
    expect(historyBlockLayout("FLOORPLANHISTORY", ["id", "field", JAN, FEB])).toBeUndefined();
    expect(historySeries("HISTORY", [["#N/A"]])).toBeUndefined();
  });
});

describe("wideSpillFromTable", () => {
  it("leaves a period the long table has no row for empty, and keeps every field", () => {
    // Property 2 has no January row at all; property 1's February rent is missing.
    const long = shapeTable(
      ["date", "id", "avg_rent", "leases_last_30d"],
      [
        ["2026-01-31", 1, 1500, 3],
        ["2026-02-28", 1, null, 4],
        ["2026-02-28", 2, 1700, 0],
      ],
    );
    const wide = wideSpillFromTable(long, "HISTORY", "none", { choice: "ids" });
    expect(wide).toEqual([
      ["id", "field", JAN, FEB],
      [1, "avg_rent", 1500, ""],
      [2, "avg_rent", "", 1700],
      [1, "leases_last_30d", 3, 4],
      [2, "leases_last_30d", "", 0],
    ]);
    expect(
      historySeries("HISTORY", wide)?.map((line) => [line.keys[0], line.field, line.points.length]),
    ).toEqual([
      [1, "avg_rent", 2],
      [2, "avg_rent", 2],
      [1, "leases_last_30d", 2],
      [2, "leases_last_30d", 2],
    ]);
  });

  it("is #N/A with the reason when there is nothing to lay out", () => {
    let error: unknown;
    try {
      wideSpillFromTable(shapeTable(["date", "id", "avg_rent"], []), "HISTORY", "No history here.", {
        choice: "ids",
      });
    } catch (thrown) {
      error = thrown;
    }
    expect(toCellError(error)).toMatchObject({
      code: CustomFunctions.ErrorCode.notAvailable,
      message: "No history here.",
    });
  });
});

describe("checkWideColumns", () => {
  it("allows as many periods as a sheet has columns beside the keys and the field column, and no more", () => {
    expect(() => checkWideColumns("HISTORY", 16_382, "day")).not.toThrow();
    expect(() => checkWideColumns("HISTORY", 16_383, "day")).toThrow(
      "layout wide: 16,383 periods of a day need 16,385 columns; a sheet has 16,384.",
    );
    expect(() => checkWideColumns("FLOORPLANHISTORY", 16_378, "day")).not.toThrow();
    expect(() => checkWideColumns("FLOORPLANHISTORY", 16_379, "week")).toThrow(
      /^layout wide: 16,379 periods of a week need 16,385 columns/,
    );
  });
});
