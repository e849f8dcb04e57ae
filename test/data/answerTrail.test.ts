import { AnswerTrail, dataDateOf, type AnswerNote } from "../../src/data/answerTrail";

const note = (overrides: Partial<AnswerNote>): AnswerNote => ({
  kind: "property",
  source: "cache",
  storedAt: 1_000,
  freshUntil: 10_000,
  ...overrides,
});

describe("AnswerTrail", () => {
  it("dates a line's freshness by its earliest answer's, whichever order they come in", () => {
    for (const order of [
      [20_000, 5_000, 9_000],
      [5_000, 20_000, 9_000],
      [9_000, 20_000, 5_000],
    ]) {
      const trail = new AnswerTrail();
      order.forEach((freshUntil, index) => trail.note(`key-${index}`, note({ freshUntil })));
      expect(trail.lines()).toEqual([expect.objectContaining({ answers: 3, freshUntil: 5_000 })]);
    }
  });

  it("spans a line's stored times and data days from the first to the last of its answers", () => {
    const trail = new AnswerTrail();
    trail.note("a", note({ storedAt: 3_000, dataDate: "2026-01-10" }));
    trail.note("b", note({ storedAt: 1_000, dataDate: "2026-01-03", lastDataDate: "2026-01-31" }));
    trail.note("c", note({ storedAt: 2_000 }));
    trail.note("d", note({ storedAt: 4_000, dataDate: "2026-01-05" }));
    expect(trail.lines()).toEqual([
      {
        kind: "property",
        source: "cache",
        answers: 4,
        firstStoredAt: 1_000,
        lastStoredAt: 4_000,
        freshUntil: 10_000,
        firstDataDate: "2026-01-03",
        lastDataDate: "2026-01-31",
      },
    ]);
  });

  it("notes a request once, and keeps kinds, sources and reasons on lines of their own", () => {
    const trail = new AnswerTrail();
    trail.note("a", note({}));
    trail.note("a", note({ freshUntil: 1 }));
    trail.note("b", note({ source: "network" }));
    trail.note("c", note({ kind: "history" }));
    trail.note("d", note({ reason: "offline" }));
    const lines = trail.lines();
    expect(lines.map((line) => [line.kind, line.source, line.reason, line.answers])).toEqual([
      ["property", "cache", undefined, 1],
      ["property", "network", undefined, 1],
      ["history", "cache", undefined, 1],
      ["property", "cache", "offline", 1],
    ]);
    expect(lines[0]?.freshUntil).toBe(10_000);
  });
});

describe("dataDateOf", () => {
  it("dates a list by its latest collection day, wherever in the list it is", () => {
    const floorPlans = {
      data: [
        { attributes: { collected_at: "2026-03-10" } },
        { attributes: { collected_at: "2026-03-14" } },
        { attributes: { collected_at: "2026-03-12" } },
      ],
    };
    expect(dataDateOf(floorPlans)).toBe("2026-03-14");
    expect(dataDateOf([{ collected_at: "2026-03-14" }, { collected_at: "2026-03-02" }])).toBe("2026-03-14");
  });

  it("takes an analysis day, skips empty days, and has none for an answer without one", () => {
    expect(dataDateOf({ data: { attributes: { analysis_date: "2026-02-01" } } })).toBe("2026-02-01");
    expect(dataDateOf([{ collected_at: "" }, { collected_at: "2026-01-01" }, {}])).toBe("2026-01-01");
    expect(dataDateOf({ id: 1 })).toBeUndefined();
    expect(dataDateOf([])).toBeUndefined();
  });
});
