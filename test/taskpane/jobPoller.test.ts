import { ApiError } from "../../src/api/errors";
import { pollUntil } from "../../src/taskpane/jobPoller";

describe("pollUntil", () => {
  it("waits longer after each unfinished look, up to the ceiling, and stops at the first finished state", async () => {
    const states = ["submitted", "submitted", "submitted", "submitted", "submitted", "succeeded"];
    const waits: number[] = [];
    let looks = 0;

    const final = await pollUntil(
      async () => states[looks++] ?? "succeeded",
      (state) => state !== "submitted",
      { initialDelayMs: 1_000, factor: 2, maxDelayMs: 5_000, sleep: async (ms) => void waits.push(ms) },
    );

    expect(final).toBe("succeeded");
    expect(looks).toBe(6);
    expect(waits).toEqual([1_000, 2_000, 4_000, 5_000, 5_000]);
  });

  it("takes a state in hand as the first look: the first request comes after the first wait", async () => {
    const events: string[] = [];
    const updates: string[] = [];

    const final = await pollUntil(
      async () => {
        events.push("look");
        return "succeeded";
      },
      (state) => state !== "submitted",
      {
        seen: "submitted",
        onUpdate: (state) => void updates.push(state),
        sleep: async (ms) => void events.push(`wait ${ms}`),
      },
    );

    expect(final).toBe("succeeded");
    expect(events).toEqual(["wait 2000", "look"]);
    expect(updates).toEqual(["submitted", "succeeded"]);
  });

  it("stops when cancelled, without another look", async () => {
    const abort = new AbortController();
    let looks = 0;
    const polling = pollUntil(
      async () => {
        looks += 1;
        return "submitted";
      },
      () => false,
      { signal: abort.signal, initialDelayMs: 60_000 },
    );
    await Promise.resolve();
    abort.abort();

    await expect(polling).rejects.toBeInstanceOf(ApiError);
    expect(looks).toBe(1);
  });

  it("passes a failed look on to the caller", async () => {
    const refused = new ApiError("rate_limited", "The service's request limit was reached.");
    await expect(
      pollUntil(
        () => Promise.reject(refused),
        () => true,
      ),
    ).rejects.toBe(refused);
  });
});
