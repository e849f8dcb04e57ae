/**
 * Sorting a comparison's bars sorts its block: RENT.MARKETS' formula text gets the ranking options, every other
 * option and argument kept as written; options it cannot rewrite are named with what to set there.
 */
import { rankedMarketsFormula } from "../../../src/excel/charts";

describe("rankedMarketsFormula", () => {
  it("sets sort and direction in the options text, keeping the other options", () => {
    expect(
      rankedMarketsFormula(
        '=RENT.MARKETS("rent_avg_t30, leased_percent_avg_t30", "limit=8; Sort=leased_percent_avg_t30; states=TX")',
        "rent_avg_t30",
        "smallest",
      ),
    ).toEqual({
      formula:
        '=RENT.MARKETS("rent_avg_t30, leased_percent_avg_t30", "limit=8; states=TX; sort=rent_avg_t30; direction=asc")',
      ranking: "sort=rent_avg_t30; direction=asc",
      limit: 8,
    });
  });

  it("adds the options where the formula has none, inside a larger formula, with its headers kept", () => {
    expect(
      rankedMarketsFormula('=IFERROR(RENT.MARKETS("rent_avg_t30"), "")', "rent_avg_t30", "largest"),
    ).toEqual({
      formula: '=IFERROR(RENT.MARKETS("rent_avg_t30", "sort=rent_avg_t30; direction=desc"), "")',
      ranking: "sort=rent_avg_t30; direction=desc",
      limit: 50,
    });
    expect(rankedMarketsFormula('=RENT.MARKETS(A2:A3, , "names")', "rent_avg_t30", "smallest")).toMatchObject(
      {
        formula: '=RENT.MARKETS(A2:A3, "sort=rent_avg_t30; direction=asc", "names")',
      },
    );
    // Quotes, commas and parentheses inside text are text.
    expect(
      rankedMarketsFormula('=RENT.MARKETS("a,b", "msa_id=""Austin, TX (metro)""")', "a", "largest"),
    ).toMatchObject({
      formula: '=RENT.MARKETS("a,b", "msa_id=""Austin, TX (metro)""; sort=a; direction=desc")',
    });
  });

  it("leaves a formula that already ranks so as written (a direction left out is descending)", () => {
    const formula = '=RENT.MARKETS("rent_avg_t30", "sort=RENT_AVG_T30; limit=5")';
    expect(rankedMarketsFormula(formula, "rent_avg_t30", "largest")).toEqual({
      formula,
      ranking: "sort=rent_avg_t30; direction=desc",
      limit: 5,
    });
  });

  it("names options it does not rewrite (cells, expressions) and what to set there", () => {
    expect(rankedMarketsFormula('=RENT.MARKETS("rent_avg_t30", B1:C3)', "rent_avg_t30", "smallest")).toEqual({
      problem:
        "RENT.MARKETS takes its options from B1:C3, which the pane does not rewrite: set sort=rent_avg_t30; " +
        "direction=asc there to sort the block and its bars.",
    });
    expect(rankedMarketsFormula('=RENT.MARKETS("x", "limit=" & D1)', "x", "largest")).toMatchObject({
      problem: expect.stringContaining('from "limit=" & D1'),
    });
  });
});
