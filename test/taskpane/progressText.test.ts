import { LIVE_PACING } from "../../src/data/tokenBucket";
import { limitInWords, progressWords } from "../../src/taskpane/progressText";

const NO_JOBS = { running: 0, timeLeftMs: 0 };
const waiting = {
  waiting: 43,
  onTheWire: 0,
  done: 29,
  total: 72,
  timeLeftMs: 258_000,
  pausedForMs: 0,
  limit: { ...LIVE_PACING, learned: false },
};

describe("the progress strip's words", () => {
  it("state a limit as the vendor does, from the figures in force", () => {
    expect(limitInWords(LIVE_PACING)).toBe("100 requests per 5 minutes");
    expect(limitInWords({ limit: 1, windowMs: 60_000 })).toBe("1 request per minute");
    expect(limitInWords({ limit: 40, windowMs: 20_000 })).toBe("40 requests per 20 seconds");
  });

  it("give the pause the service asked for as the reason while the waiting requests sit it out", () => {
    const words = progressWords({ requests: { ...waiting, pausedForMs: 19_200 }, exportJobs: NO_JOBS });
    expect(words.why).toBe("Why: the service's limit was reached, and it asked to wait 20 s.");
  });

  it("say what goes out now when the pacing holds nothing back", () => {
    const words = progressWords({ requests: { ...waiting, timeLeftMs: 0 }, exportJobs: NO_JOBS });
    expect(words.doneOfTotal).toBe("29 of 72 requests done, the rest going out now.");
  });

  it("name requests and export jobs together, and the requests' reason first", () => {
    const words = progressWords({ requests: waiting, exportJobs: { running: 2, timeLeftMs: 240_000 } });
    expect(words).toEqual({
      waiting: "Waiting: 43 requests to the service and 2 export jobs.",
      doneOfTotal: "29 of 72 requests done, about 4 min left at the service's pace.",
      jobs: "Export jobs: about 4 min left, the service's usual time for the size.",
      why: "Why: the service allows 100 requests per 5 minutes (its documented limit).",
    });
  });
});
