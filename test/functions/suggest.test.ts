import { suggestionFor } from "../../src/functions/args/suggest";

describe("suggestionFor", () => {
  const fields = [
    "leased_percent",
    "unit_count",
    "asking_rent",
    "concession_percent",
    "concession_percent_0_bed",
  ];

  it("offers the closest spelling of a mistyped name", () => {
    expect(suggestionFor("unit_cout", fields)).toBe(' Did you mean "unit_count"?');
  });

  it("offers the one field a plain word means, or each of several", () => {
    expect(suggestionFor("occupancy", fields)).toBe(' Did you mean "leased_percent"?');
    expect(suggestionFor("concessions", fields)).toBe(
      ' Did you mean "concession_percent", "concession_percent_0_bed"?',
    );
  });

  it("offers nothing, rather than an empty question, when no field is near", () => {
    expect(suggestionFor("zoning", fields)).toBe("");
  });
});
