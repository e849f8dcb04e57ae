/**
 * The sandbox's deterministic streams: a hash of leading parts taken once and finished with many last parts
 * (the listing of a unit cycle after cycle) must equal hashing all the parts each time, and a unit's listing
 * is drawn afresh in each listing cycle.
 */
import fc from "fast-check";
import { datasetFor } from "../../sandbox/data/dataset";
import { dayNumber } from "../../sandbox/data/propertyRecord";
import { finishHash, hashPrefix, hashSeed, mixIntoHash } from "../../sandbox/data/random";
import { listedUnits } from "../../sandbox/data/units";
import { TODAY } from "./support/fixtures";

it("hashing leading parts once, then each last part, equals hashSeed of all the parts", () => {
  const part = fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.integer({ min: -1_000, max: 1_000 }));
  fc.assert(
    fc.property(fc.array(part, { maxLength: 5 }), part, (leading, last) => {
      expect(finishHash(mixIntoHash(hashPrefix(...leading), last))).toBe(hashSeed(...leading, last));
    }),
    { numRuns: 2_000 },
  );
});

it("lists a different set of a property's units from one listing cycle to the next", () => {
  const dataset = datasetFor(1, 2_000);
  const property = dataset.properties.find(
    (candidate) => candidate.askingRent !== null && candidate.unitCount > 100,
  );
  if (!property) throw new Error("the dataset has a property on the market with over 100 units");
  const today = dayNumber(TODAY);
  // One day in each of twelve cycles of 42 days: the same day of the cycle for every unit.
  const sets = Array.from({ length: 12 }, (_, cycle) =>
    listedUnits(dataset, property, today - cycle * 42, today)
      .map((unit) => unit.spec.key)
      .join(","),
  );
  expect(new Set(sets).size).toBeGreaterThan(6);
});
