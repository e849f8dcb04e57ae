import { NUMBER_FORMAT_BY_KIND } from "../../src/tables/columnKinds";
import { isoDateToSerial } from "../../src/tables/excelDates";
import { answerText, cellText, formattedText } from "../../src/taskpane/insert/previewText";

const formatted = (basicValue: number, kind: keyof typeof NUMBER_FORMAT_BY_KIND) => ({
  type: "FormattedNumber",
  basicValue,
  numberFormat: NUMBER_FORMAT_BY_KIND[kind],
});

describe("the Insert tab's preview shows values as their cells will", () => {
  it("formats each kind of number the add-in gives a format", () => {
    expect(cellText(formatted(1600.734, "currency"))).toBe("$1,600.73");
    expect(cellText(formatted(-5.5, "currency"))).toBe("-$5.50");
    expect(cellText(formatted(0.9187, "percent"))).toBe("91.87%");
    expect(cellText(formatted(0.035, "percent"))).toBe("3.50%");
    expect(cellText(formatted(2005, "year"))).toBe("2005");
    expect(cellText(formatted(1.254, "miles"))).toBe("1.25 mi");
    expect(cellText(formatted(12345, "integer"))).toBe("12,345");
    expect(cellText(formatted(1234.5, "number"))).toBe("1,234.50");
    expect(cellText(formatted(30.2672, "coordinate"))).toBe("30.267200");
    expect(cellText(formatted(isoDateToSerial("2026-11-23") as number, "date"))).toBe("2026-11-23");
  });

  it("formats a Double with its numberFormat as a FormattedNumber (hosts with ExcelApi 1.19)", () => {
    const double = { ...formatted(0.9187, "percent"), type: "Double" };
    expect(cellText(double)).toBe("91.87%");
    expect(cellText({ ...formatted(1600.734, "currency"), type: "Double" })).toBe("$1,600.73");
  });

  it("shows a number under a format it does not know as Excel's General would", () => {
    expect(formattedText(1.5, "0.0000E+00")).toBe("1.5");
  });

  it("shows plain values, entity cards by their title, and tables by their size", () => {
    expect(cellText(1890)).toBe("1890");
    expect(cellText("Austin")).toBe("Austin");
    expect(cellText({ type: "Entity", text: "The Grove", properties: {} })).toBe("The Grove");
    expect(answerText([[formatted(0.972, "percent")]])).toBe("97.20%");
    expect(
      answerText([
        ["date", "occupancy_percent"],
        [46000, 95],
      ]),
    ).toBe("a table of 2 rows by 2 columns");
  });
});
