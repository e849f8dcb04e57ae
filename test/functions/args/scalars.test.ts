import { readBoolean, readInteger } from "../../../src/functions/args/scalars";

describe("readInteger at its bounds", () => {
  it("takes both bounds and refuses one past either", () => {
    expect(readInteger(1, "limit", 1, 100)).toBe(1);
    expect(readInteger(100, "limit", 1, 100)).toBe(100);
    expect(readInteger("100", "limit", 1, 100)).toBe(100);
    expect(() => readInteger(101, "limit", 1, 100)).toThrow(
      "limit must be a whole number from 1 to 100, not 101.",
    );
    expect(() => readInteger(0, "limit", 1, 100)).toThrow(
      "limit must be a whole number from 1 to 100, not 0.",
    );
    expect(() => readInteger(2.5, "limit", 1, 100)).toThrow(/^limit must be a whole number from 1 to 100/);
  });
});

describe("readBoolean's words", () => {
  it("takes on and off, in any case, as TRUE and FALSE", () => {
    expect(["on", "ON", " On "].map((word) => readBoolean(word, "x"))).toEqual([true, true, true]);
    expect(["off", "OFF", "1", "0"].map((word) => readBoolean(word, "x"))).toEqual([
      false,
      false,
      true,
      false,
    ]);
    expect(() => readBoolean(2, "x")).toThrow(/x must be TRUE or FALSE/);
  });
});
