/**
 * Columns the contract does not list (the live export's columns are not all known) take their kind from the
 * words of their name; each name here is checked to be outside the contract, so the words are what decide.
 */
import { factsOf } from "../../src/api/fieldFacts";
import { inferColumnKind } from "../../src/tables/columnKinds";

describe("inferColumnKind from the words of a name the contract does not list", () => {
  it.each([
    ["owner_mailing_zip", [78701, 10001], "identifier"],
    ["survey_refreshed_at", ["2026-11-01", "2026-11-02"], "timestamp"],
    ["survey_refreshed_at", [], "timestamp"],
    ["market_cap_rate_t90", [0.051], "percent"],
    ["unit_sqft_differential", [-20, 15], "integer"],
    ["asking_rent_differential", [-20, 15], "currency"],
    ["distance_to_transit", [1.25], "miles"],
    ["walk_distance", [2], "miles"],
    ["renewal_pct_t90", [0.55], "percent"],
    ["listing_date", ["2026-12-01"], "date"],
  ] as const)("%s with %j is %s", (name, values, kind) => {
    expect(factsOf(name)).toBeUndefined();
    expect(inferColumnKind(name, values)).toBe(kind);
  });
});
