import { OBSERVED_JOB_DURATIONS } from "../../src/api/contractLimits";
import { expectedJobMs, waitInWords } from "../../src/data/history/exportJobWait";

describe("expectedJobMs", () => {
  it("goes through the contract's two recorded runs, and grows with every property-day from the first", () => {
    for (const { property_days: propertyDays, seconds } of OBSERVED_JOB_DURATIONS)
      expect(expectedJobMs(1, propertyDays)).toBe(seconds * 1000);
    expect(expectedJobMs(10, 395)).toBe(expectedJobMs(1, 3950));
    expect(expectedJobMs(1, 1)).toBeLessThan(expectedJobMs(1, 2));
    // No property or no day is still a job: it takes what one property-day takes.
    expect(expectedJobMs(0, 31)).toBe(expectedJobMs(1, 1));
  });
});

describe("waitInWords", () => {
  it("says seconds in tens under a minute, whole minutes above, and nothing left as any moment", () => {
    expect([-1, 0, 1, 10_000, 10_001, 59_000, 60_000, 89_000, 91_000].map(waitInWords)).toEqual([
      "any moment now",
      "any moment now",
      "about 10 s",
      "about 10 s",
      "about 20 s",
      "about 60 s",
      "about 1 min",
      "about 1 min",
      "about 2 min",
    ]);
  });
});
