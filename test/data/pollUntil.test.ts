import { pollUntil } from "../../src/data/pollUntil";

describe("pollUntil", () => {
  it("waits 2 s first by default, doubling up to a minute between looks", async () => {
    const waits: number[] = [];
    let looks = 0;
    const state = await pollUntil(
      async () => ++looks,
      (seen) => seen === 9,
      { sleep: async (ms) => void waits.push(ms) },
    );
    expect(state).toBe(9);
    expect(waits).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
  });

  it("takes a state in hand as the first look, and sends nothing when it is done already", async () => {
    let looks = 0;
    const seen: string[] = [];
    const state = await pollUntil(
      async () => {
        looks++;
        return "succeeded";
      },
      (status) => status === "succeeded",
      { seen: "succeeded", onUpdate: (status) => seen.push(status), sleep: async () => undefined },
    );
    expect(state).toBe("succeeded");
    expect(looks).toBe(0);
    expect(seen).toEqual(["succeeded"]);
  });
});
