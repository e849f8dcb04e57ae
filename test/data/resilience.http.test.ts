import "fake-indexeddb/auto";
import { DEFAULT_RETRY } from "../../src/data/retryPolicy";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { until } from "../support/drained";
import { steppingClock } from "../support/steppingClock";
import { ACCOUNT_ID, countSince, expectedAttributes, layerFor, propertyIds } from "./support/dataHarness";
import { NARRATIVES as NARRATIVES_ROW, SUBMIT_JOB } from "../../src/data/endpoints";
import { PROPERTY_DETAILS } from "../../src/data/batchedEndpoints";

const NARRATIVES = "/v1/markets/narratives";
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, propertyCount: 2000, rateLimit: 100_000 });
});

afterEach(() => {
  sandbox.context.faults.reset();
});

afterAll(async () => {
  await sandbox.close();
});

/** Boundaries that have narratives (MSAs and submarkets): one distinct request each. */
function narrativeBoundaries(count: number): number[] {
  return sandbox.context
    .dataset()
    .geography.boundaries.filter(
      (boundary) => boundary.geoType === "MSA" || boundary.geoType === "BespokeSubmarket",
    )
    .slice(0, count)
    .map((boundary) => boundary.id);
}

/** A fetch for the service client that counts what the client really sends. */
function countingFetch() {
  const sent = { count: 0 };
  const fetchAndCount: typeof fetch = (input, init) => {
    sent.count += 1;
    return fetch(input, init);
  };
  return { sent, fetchAndCount };
}

/** Reference answers, fetched without faults by a layer of its own. */
async function referenceNarratives(ids: number[]) {
  const { layer } = layerFor(sandbox);
  return Promise.all(
    ids.map(
      async (id) => (await layer.read(NARRATIVES_ROW, { boundaryId: id }, { accountId: ACCOUNT_ID })).value,
    ),
  );
}

describe("identical requests", () => {
  it("make one call", async () => {
    const { layer } = layerFor(sandbox);
    const [id] = narrativeBoundaries(1) as [number];
    const before = sandbox.counters.snapshot();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        layer.read(NARRATIVES_ROW, { boundaryId: id }, { accountId: ACCOUNT_ID }),
      ),
    );
    expect(countSince(sandbox, NARRATIVES, before)).toBe(1);
    expect(new Set(answers.map((answer) => JSON.stringify(answer.value))).size).toBe(1);
  });
});

describe("a 429 burst", () => {
  it("makes every waiting request wait as long as Retry-After says, sends nothing during the wait, then all succeed", async () => {
    const { sent, fetchAndCount } = countingFetch();
    const retryAfters: number[] = [];
    let onTheWire = 0;
    const watchRetryAfter: typeof fetch = async (input, init) => {
      onTheWire += 1;
      try {
        const response = await fetchAndCount(input, init);
        if (response.status === 429) retryAfters.push(Number(response.headers.get("retry-after")));
        return response;
      } finally {
        onTheWire -= 1;
      }
    };
    const pauses: { ms: number; sentDuring: number }[] = [];
    const clock = steppingClock(Date.now());
    const { layer } = layerFor(
      sandbox,
      {
        maxInFlight: 4,
        now: clock.now,
        // The gate's pause is the only long sleep. While it lasts, the burst's other answers arrive (and go
        // back to the gate): anything the gate let out meanwhile would be counted as sent during the pause.
        sleep: async (ms, signal) => {
          if (ms < 1000) return clock.sleep(ms, signal);
          const atStart = sent.count;
          await until(() => onTheWire === 0);
          pauses.push({ ms, sentDuring: sent.count - atStart });
          return clock.sleep(ms, signal);
        },
      },
      watchRetryAfter,
    );
    // A short window, so that the burst's Retry-After (the rest of the window) is a wait cells sit out.
    sandbox.context.rateLimiter.configure(100_000, 5);
    try {
      await layer.accounts(); // holds a token before the burst
      const ids = narrativeBoundaries(12);
      const expected = await referenceNarratives(ids);
      const before = sandbox.counters.snapshot();
      sandbox.context.faults.update({ rateLimitBurst: 4 });

      const answers = await Promise.all(
        ids.map((id) => layer.read(NARRATIVES_ROW, { boundaryId: id }, { accountId: ACCOUNT_ID })),
      );

      expect(answers.map((answer) => answer.value)).toEqual(expected);
      expect(pauses).toHaveLength(1);
      expect(pauses[0]?.sentDuring).toBe(0);
      expect(retryAfters).toHaveLength(4);
      // The wait is the service's Retry-After (whole seconds), not a number of our own.
      expect(retryAfters.map((seconds) => seconds * 1000)).toContain(pauses[0]?.ms);
      expect(countSince(sandbox, NARRATIVES, before)).toBe(12 + 4);
      expect((await layer.stats()).requests).toMatchObject({ rateLimitWaits: 4, gatePauses: 1 });
    } finally {
      sandbox.context.rateLimiter.configure(100_000, 300);
    }
  });
});

describe("injected faults", () => {
  it("with 20% 500s gives every result correctly and retries within the bound", async () => {
    const maxAttempts = 6;
    const { layer } = layerFor(sandbox, {
      ...steppingClock(),
      retry: { baseDelayMs: 1, maxDelayMs: 4, maxAttempts },
    });
    const ids = narrativeBoundaries(40);
    const expectedNarratives = await referenceNarratives(ids);
    const properties = propertyIds(sandbox, 250);
    const before = sandbox.counters.snapshot();
    sandbox.context.faults.update({ errorRate: 0.2 });

    const [narratives, details] = await Promise.all([
      Promise.all(ids.map((id) => layer.read(NARRATIVES_ROW, { boundaryId: id }, { accountId: ACCOUNT_ID }))),
      layer.readMany(PROPERTY_DETAILS, {}, properties, { accountId: ACCOUNT_ID }),
    ]);

    expect(narratives.map((answer) => answer.value)).toEqual(expectedNarratives);
    for (const id of properties) {
      expect(details.records.get(id)).toMatchObject({ value: expectedAttributes(sandbox, id) });
    }
    const logical = ids.length + Math.ceil(properties.length / 200);
    const sentToSandbox =
      countSince(sandbox, NARRATIVES, before) + countSince(sandbox, "/v1/properties/bulk_details", before);
    const { requests } = await layer.stats();
    expect(sentToSandbox).toBe(requests.attempts);
    expect(requests.retries).toBe(sentToSandbox - logical);
    expect(requests.retries).toBeGreaterThan(0); // the faults did happen
    expect(sentToSandbox).toBeLessThanOrEqual(logical * maxAttempts);
  });

  it("retries dropped connections as network failures", async () => {
    const { layer } = layerFor(sandbox, {
      ...steppingClock(),
      retry: { baseDelayMs: 1, maxDelayMs: 4, maxAttempts: 6 },
    });
    await layer.accounts();
    const ids = narrativeBoundaries(20);
    const expected = await referenceNarratives(ids);
    sandbox.context.faults.update({ dropRate: 0.2 });
    const answers = await Promise.all(
      ids.map((id) => layer.read(NARRATIVES_ROW, { boundaryId: id }, { accountId: ACCOUNT_ID })),
    );
    expect(answers.map((answer) => answer.value)).toEqual(expected);
    expect((await layer.stats()).requests.retries).toBeGreaterThan(0);
  });

  it("gives up after the bound, with the server kind", async () => {
    const { layer } = layerFor(sandbox, {
      ...steppingClock(),
      retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 3 },
    });
    await layer.accounts();
    const [id] = narrativeBoundaries(1) as [number];
    const before = sandbox.counters.snapshot();
    sandbox.context.faults.update({ errorRate: 1 });
    await expect(
      layer.read(NARRATIVES_ROW, { boundaryId: id }, { accountId: ACCOUNT_ID }),
    ).rejects.toMatchObject({ kind: "server" });
    expect(countSince(sandbox, NARRATIVES, before)).toBe(3);
  });

  it("never sends a job submission twice after a 500", async () => {
    const { layer } = layerFor(sandbox, { ...steppingClock(), retry: { baseDelayMs: 1, maxDelayMs: 2 } });
    await layer.accounts();
    const before = sandbox.counters.snapshot();
    sandbox.context.faults.update({ errorRate: 1 });
    const [propertyId] = propertyIds(sandbox, 1) as [number];
    await expect(
      layer.send(SUBMIT_JOB, {
        report_type: "property",
        output_format: "csv",
        property_ids: [propertyId],
        start_date: sandbox.clock.today(),
        end_date: sandbox.clock.today(),
      }),
    ).rejects.toMatchObject({ kind: "server" });
    expect(countSince(sandbox, "/v1/bulk_api/jobs", before)).toBe(1);
    expect(DEFAULT_RETRY.maxAttempts).toBeGreaterThan(1); // reads would have been retried
  });
});

describe("a token that expires mid-burst", () => {
  it("causes exactly one renewal", async () => {
    let advanced = false;
    let sentSinceStart = 0;
    // After the first few requests of the burst, the service's clock passes the token's expiry.
    const expiringFetch: typeof fetch = (input, init) => {
      sentSinceStart += 1;
      if (!advanced && sentSinceStart > 6) {
        advanced = true;
        sandbox.clock.advance((sandbox.context.options.tokenLifetimeSeconds + 60) * 1000);
      }
      return fetch(input, init);
    };
    const { layer, tokens } = layerFor(sandbox, { maxInFlight: 4 }, expiringFetch);
    await layer.accounts();
    const renewalsBefore = tokens.renewals;
    const tokenRequestsBefore = sandbox.counters.get("/oauth/token");
    sentSinceStart = 0;
    const ids = narrativeBoundaries(30);
    const answers = await Promise.all(
      ids.map((id) => layer.read(NARRATIVES_ROW, { boundaryId: id }, { accountId: ACCOUNT_ID })),
    );
    sandbox.clock.useRealTime();
    expect(advanced).toBe(true);
    expect(answers).toHaveLength(30);
    for (const [index, answer] of answers.entries()) {
      expect(
        answer.value.data.every((narrative) => narrative.attributes.geo_boundary_id === ids[index]),
      ).toBe(true);
    }
    expect(tokens.renewals - renewalsBefore).toBe(1);
    expect(sandbox.counters.get("/oauth/token") - tokenRequestsBefore).toBe(1);
  });
});

describe("a token revoked while many requests are in flight", () => {
  it("causes exactly one renewal, however late the other 401s arrive", async () => {
    let armed = false;
    let sent = 0;
    let revoked = false;
    const tokenToRevoke = { value: "" };
    const leaveTogether: (() => void)[] = [];
    const refusals: (() => void)[] = [];
    // Twelve requests leave together, the token revoked as the last one leaves. Their 401s are held and handed
    // over one at a time, each after the previous request has been sent again: all but the first 401 arrive
    // after the token was renewed.
    const orderedFetch: typeof fetch = async (input, init) => {
      if (!armed) return fetch(input, init);
      const order = sent++;
      if (order < 11) await new Promise<void>((go) => leaveTogether.push(go));
      if (order === 11) {
        revoked = true;
        sandbox.context.tokens.revoke({ accessToken: tokenToRevoke.value });
        leaveTogether.forEach((go) => go());
      }
      const response = await fetch(input, init);
      if (response.status === 401) await new Promise<void>((hand) => refusals.push(hand));
      return response;
    };
    const ids = narrativeBoundaries(12);
    const expected = await referenceNarratives(ids);
    const { layer, tokens } = layerFor(sandbox, { maxInFlight: 12 }, orderedFetch);
    await layer.accounts();
    tokenToRevoke.value = await tokens.token();
    const renewalsBefore = tokens.renewals;
    const tokenRequestsBefore = sandbox.counters.get("/oauth/token");
    const before = sandbox.counters.snapshot();
    armed = true;
    const answering = Promise.all(
      ids.map((id) => layer.read(NARRATIVES_ROW, { boundaryId: id }, { accountId: ACCOUNT_ID })),
    );
    await until(() => refusals.length === 12);
    for (const [index, hand] of refusals.entries()) {
      hand();
      await until(() => sent === 12 + index + 1);
    }
    const answers = await answering;
    expect(answers.map((answer) => answer.value)).toEqual(expected);
    expect(revoked).toBe(true);
    expect(tokens.renewals - renewalsBefore).toBe(1);
    expect(sandbox.counters.get("/oauth/token") - tokenRequestsBefore).toBe(1);
    expect(countSince(sandbox, NARRATIVES, before)).toBe(24); // each sent twice: refused, then with the new token
  });
});
