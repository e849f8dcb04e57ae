import { LIVE_PACING, TokenBucket } from "../../src/data/tokenBucket";

function bucket(options: { limit: number; windowMs: number; burst: number }) {
  let now = 0;
  const paced = new TokenBucket(options, () => now);
  return { paced, advance: (ms: number) => (now += ms) };
}

describe("TokenBucket", () => {
  it("paces the live limit: a burst of 50, then the other 50 spread over five minutes", () => {
    expect(LIVE_PACING).toEqual({ limit: 100, windowMs: 300_000, burst: 50 });
    const { paced } = bucket(LIVE_PACING);
    for (let i = 0; i < 50; i++) expect(paced.take()).toBe(0);
    expect(paced.take()).toBe(6_000);
  });

  it("refills a whole burst once per window when the limit is the burst", () => {
    const { paced, advance } = bucket({ limit: 10, windowMs: 1_000, burst: 10 });
    for (let i = 0; i < 10; i++) paced.take();
    expect(paced.waitFor(10)).toBe(1_000);
    advance(1_000);
    expect(paced.waitFor(10)).toBe(0);
  });

  it("says no wait for exactly the tokens in hand, and the wait for one more", () => {
    const { paced } = bucket({ limit: 20, windowMs: 1_000, burst: 10 });
    expect(paced.waitFor(10)).toBe(0);
    expect(paced.waitFor(11)).toBe(100);
  });

  it("keeps no more tokens than a tighter burst allows once reconfigured", () => {
    const { paced } = bucket({ limit: 100, windowMs: 1_000, burst: 50 });
    paced.reconfigure({ limit: 10, windowMs: 1_000, burst: 5 });
    expect(paced.waitFor(5)).toBe(0);
    expect(paced.waitFor(6)).toBeGreaterThan(0);
  });
});
