/**
 * The team gate lets people through in turn: one person's big refresh queues behind itself, not in front of a
 * colleague's single request; and it learns the limit the service reports.
 */
import { LocalBudget } from "../../relay/store/localCoordination";
import { ReportedLimit, TeamGate } from "../../relay/upstream/teamGate";

test("a colleague's one request goes out next, not after someone's whole refresh", async () => {
  // One request at once, the next a few ms later: everything queues, and order is all that matters.
  const limit = new ReportedLimit({ limit: 2, windowMs: 10, burst: 1 });
  const gate = new TeamGate(new LocalBudget(), limit);
  const order: string[] = [];
  const refresh = Array.from({ length: 6 }, (_, index) =>
    gate.acquire("big-refresh").then(() => order.push(`big-${index}`)),
  );
  const single = gate.acquire("colleague").then(() => order.push("colleague"));
  await Promise.all([...refresh, single]);
  expect(order.indexOf("colleague")).toBeLessThanOrEqual(2);
  expect(order.filter((name) => name.startsWith("big"))).toEqual(
    Array.from({ length: 6 }, (_, index) => `big-${index}`),
  );
});

test("the limit is learned from the service's rate-limit headers", () => {
  const limit = new ReportedLimit({ limit: 100, windowMs: 300_000, burst: 50 });
  limit.learn(new Headers({ "X-RateLimit-Limit": "60", "X-RateLimit-Reset-After": "120" }));
  expect(limit.current).toEqual({ limit: 60, windowMs: 120_000, burst: 30 });
  limit.learn(new Headers({ "X-RateLimit-Limit": "not a number" }));
  expect(limit.current.limit).toBe(60);
});
