/**
 * Answers the add-in can act on when the fault is not the person's. The service refusing the relay's own
 * credentials (even a freshly renewed token) is a 502 that says so: a 401 would make the add-in tell the person
 * that their personal key was revoked (src/api/tokens.ts). A JSON body nested beyond reason is a 400 with a
 * message, not a relay failure.
 */
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { startLiveBudgetRelay } from "./support/liveBudgetRelay";

const forecastBody = {
  account_id: 100,
  aggregations: [{ name: "g", field: "rent_growth_rate_yoy", aggregation_type: "avg" }],
};

async function expectRelayCredentialsRefused(answer: Response): Promise<void> {
  expect(answer.status).toBe(502);
  const body = (await answer.json()) as { message: string };
  expect(body.message).toMatch(
    /did not accept the team relay's own credentials.*not about your personal key/,
  );
  expect(body.message).toMatch(/relay admin/);
}

describe("the service refuses the relay's credentials", () => {
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    // Tokens that are expired when issued: the service refuses every token, a renewed one too.
    sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000, tokenLifetimeSeconds: 0 });
  });

  afterAll(async () => {
    await sandbox.close();
  });

  test("a 401 after the relay renewed its token is a 502 that names the relay's credentials", async () => {
    const relay = await startLiveBudgetRelay(sandbox);
    try {
      const key = await relay.addUser("someone", [100]);
      const propertyId = sandbox.dataset().properties.find((property) => property.hasForecast)?.id as number;
      await expectRelayCredentialsRefused(
        await relay.api(key, "/v1/properties/lookup?account_id=100&per_page=1"),
      );
      await expectRelayCredentialsRefused(
        await relay.api(key, `/v1/properties/${propertyId}/forecasts`, forecastBody),
      );
      // Each was refused after one renewal: a token, a refusal, a new token, a refusal.
      expect(sandbox.counters.get("/v1/properties/lookup")).toBe(2);
    } finally {
      await relay.close();
    }
  });

  test("a refused client secret is a 502 that names the relay's credentials", async () => {
    const relay = await startLiveBudgetRelay(sandbox, { clientSecret: "not-the-secret" });
    try {
      const key = await relay.addUser("someone", [100]);
      await expectRelayCredentialsRefused(
        await relay.api(key, "/v1/properties/lookup?account_id=100&per_page=1"),
      );
      expect(relay.log.text).not.toContain("not-the-secret");
    } finally {
      await relay.close();
    }
  });
});

test("a JSON body nested 200,000 levels deep is a 400 with a message", async () => {
  const sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000 });
  const relay = await startLiveBudgetRelay(sandbox);
  try {
    const key = await relay.addUser("deep", [100]);
    const depth = 200_000;
    const nested = `{"account_id": 100, "market_filters": ${"[".repeat(depth)}${"]".repeat(depth)}}`;
    const answer = await fetch(`${relay.url}/api/v1/explore_markets`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: nested,
    });
    expect(answer.status).toBe(400);
    expect((await answer.json()).message).toMatch(/nests 200001 levels deep; the relay accepts at most 32/);
    expect(Object.keys(sandbox.counters.snapshot()).filter((path) => path.startsWith("/v1/"))).toEqual([]);
  } finally {
    await relay.close();
    await sandbox.close();
  }
});
