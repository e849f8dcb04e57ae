/**
 * The bulk export quota guard over HTTP: a RENT.PROPERTY block or a RENT.PROPERTIES pull that would spend more
 * of the account's quota than one pull may, or than is left, is held before a request goes, says how much it
 * would spend and how to allow it; allowed once, it goes. The guard itself costs no request.
 */
import "fake-indexeddb/auto";
import { learntQuotaKept } from "../../src/data/quotaMemory";
import { properties, property } from "../../src/functions/propertyFunctions";
import { session } from "../../src/session/session";
import { fakeInvocation } from "../support/invocation";
import { UNPACED, startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

const BULK = "/v1/properties/bulk_details";
const SEARCH = "/v1/geo_boundaries/properties";

let world: SignedInSandbox;
let nextId = 100_001;
let databaseCounter = 0;

/** Ids no earlier test asked for (so none is cached). */
function freshIds(count: number): number[][] {
  const ids = Array.from({ length: count }, (_, index) => [nextId + index]);
  nextId += count;
  return ids;
}

const guard = () => session.requireSignedIn().data.quota;
const requestsTo = (route: string) => world.sandbox.counters.get(route);
const messagesOf = (block: unknown[][]) =>
  new Set(block.flat().map((cell) => (cell instanceof CustomFunctions.Error ? cell.message : "value")));

beforeAll(async () => {
  // The default dataset, which the worker's other sandboxes share: its 20,000 ids outlast every freshIds().
  world = await startSignedInSandbox("demo-pro");
});

beforeEach(async () => {
  // Each test starts from a new sign-in (the guard's counts are the sign-in's) over a cache of its own (what the
  // guard learnt is kept there) and an unspent account.
  session.useDataOptions({ ...UNPACED, databaseName: `quota-guard-${++databaseCounter}` });
  await world.signInAs("demo-pro");
  world.sandbox.context.quota.configure(1_000_000);
  world.sandbox.context.quota.reset();
});

afterAll(() => world.close());

it("holds a block past the share one pull may spend, without a request, and lets it through once allowed", async () => {
  // The account's quota is not known yet: the guard assumes the size seen live (5,000), 10 % a pull.
  const ids = freshIds(600);
  const before = requestsTo(BULK);
  const held = await property(ids, [["unit_count"]], fakeInvocation());
  expect(requestsTo(BULK) - before).toBe(0);
  expect(world.sandbox.context.quota.usageOf(world.accountId)).toBe(0);
  expect([...messagesOf(held)]).toEqual([
    "Held before spending: this pull would spend up to 600 properties of the bulk export quota, more than the " +
      "10 % one pull may spend (500 of 5,000 (assumed: the service has not named it)). To allow it once: Rent " +
      'Market pane, Account, Usage, "Allow this pull".',
  ]);
  expect(guard().held).toMatchObject({ accountId: world.accountId, properties: 600 });

  expect(guard().allowHeld()?.properties).toBe(600);
  const allowed = await property(ids, [["unit_count"]], fakeInvocation());
  expect(messagesOf(allowed)).toEqual(new Set(["value"]));
  expect(requestsTo(BULK) - before).toBe(3);
  expect(world.sandbox.context.quota.usageOf(world.accountId)).toBe(600);

  // The allowance was that pull's: the next one as large is held again.
  const next = await property(freshIds(600), [["unit_count"]], fakeInvocation());
  expect(messagesOf(next).has("value")).toBe(false);
  expect(requestsTo(BULK) - before).toBe(3);

  // A block within the share goes without asking; a recalculation of the allowed block costs nothing.
  expect(messagesOf(await property(freshIds(500), [["unit_count"]], fakeInvocation()))).toEqual(
    new Set(["value"]),
  );
  expect(messagesOf(await property(ids, [["unit_count"]], fakeInvocation()))).toEqual(new Set(["value"]));
  expect(requestsTo(BULK) - before).toBe(6);
});

it("follows the share and the quota the person sets", async () => {
  guard().configure({ quotaLimit: 400, maxShare: 0.5 });
  const before = requestsTo(BULK);
  expect(messagesOf(await property(freshIds(200), [["unit_count"]], fakeInvocation()))).toEqual(
    new Set(["value"]),
  );
  const [message] = messagesOf(await property(freshIds(201), [["unit_count"]], fakeInvocation()));
  expect(message).toMatch(/up to 201 properties .* more than the 50 % one pull may spend \(200 of 400\)\./);
  expect(requestsTo(BULK) - before).toBe(1);
});

it("learns the limit and usage from the service's quota error and holds what would pass what is left", async () => {
  world.sandbox.context.quota.configure(300);
  const before = requestsTo(BULK);
  expect(messagesOf(await property(freshIds(250), [["unit_count"]], fakeInvocation()))).toEqual(
    new Set(["value"]),
  );
  // Nothing said what was left: this block goes, and the service refuses it (its quota error names 300).
  const [refused] = messagesOf(await property(freshIds(100), [["unit_count"]], fakeInvocation()));
  expect(refused).toMatch(/quota/i);
  expect(requestsTo(BULK) - before).toBe(3);
  expect(guard().standing(world.accountId)).toMatchObject({ limit: 300, limitFrom: "service", left: 50 });

  // 60 more would pass what is left: held, no request.
  const [held] = messagesOf(await property(freshIds(60), [["unit_count"]], fakeInvocation()));
  expect(held).toMatch(/up to 60 properties of the bulk export quota, more than the 50 left of 300\./);
  expect(requestsTo(BULK) - before).toBe(3);
  // What fits goes, and is counted against what is left.
  expect(messagesOf(await property(freshIds(20), [["unit_count"]], fakeInvocation()))).toEqual(
    new Set(["value"]),
  );
  expect(guard().standing(world.accountId).left).toBe(30);
});

it("weighs a RENT.PROPERTIES pull by its max_results before the first page, and not again once cached", async () => {
  const before = requestsTo(SEARCH);
  const options = [["max_results", 1_200]];
  await expect(properties([[""]], [["property_id"]], options, undefined, fakeInvocation())).rejects.toThrow(
    /up to 1,200 properties/,
  );
  expect(requestsTo(SEARCH) - before).toBe(0);

  guard().allowHeld();
  const table = await properties([[""]], [["property_id"]], options, undefined, fakeInvocation());
  expect(table).toHaveLength(1 + 1_200);
  const pages = requestsTo(SEARCH) - before;
  expect(pages).toBeGreaterThan(0);
  // The same pull again is answered from the cache: nothing spent, so nothing held.
  const again = await properties([[""]], [["property_id"]], options, undefined, fakeInvocation());
  expect(again).toEqual(table);
  expect(requestsTo(SEARCH) - before).toBe(pages);
});

it("keeps what it learnt across a reload (a nearly spent quota, the share set)", async () => {
  world.sandbox.context.quota.configure(300);
  const before = requestsTo(BULK);
  await property(freshIds(250), [["unit_count"]], fakeInvocation());
  const [refused] = messagesOf(await property(freshIds(100), [["unit_count"]], fakeInvocation()));
  expect(refused).toMatch(/quota/i);
  guard().configure({ maxShare: 0.5 });
  const learnt = guard().standing(world.accountId);
  expect(learnt).toMatchObject({ limit: 300, limitFrom: "service", left: 50 });
  await learntQuotaKept(session.requireSignedIn().data);

  // A reload: a new runtime's sign-in of the same person over the same database.
  await world.signInAs("demo-pro");
  expect(guard().standing(world.accountId)).toEqual({ ...learnt, spent: 0 });
  expect(guard().current.maxShare).toBe(0.5);
  const sent = requestsTo(BULK);
  const [held] = messagesOf(await property(freshIds(60), [["unit_count"]], fakeInvocation()));
  expect(held).toMatch(/up to 60 properties of the bulk export quota, more than the 50 left of 300\./);
  expect(requestsTo(BULK)).toBe(sent);
  // Spending after the reload counts on from what was kept, and is kept too.
  await property(freshIds(20), [["unit_count"]], fakeInvocation());
  await learntQuotaKept(session.requireSignedIn().data);
  await world.signInAs("demo-pro");
  expect(guard().standing(world.accountId).left).toBe(30);
  expect(requestsTo(BULK) - before).toBe(4);
});

it("knows after a sign-out and sign-in of the same person what it knew, and tells no one else", async () => {
  world.sandbox.context.quota.configure(300);
  await property(freshIds(250), [["unit_count"]], fakeInvocation());
  const [refused] = messagesOf(await property(freshIds(100), [["unit_count"]], fakeInvocation()));
  expect(refused).toMatch(/quota/i);
  guard().configure({ maxShare: 0.5 });
  const learnt = guard().standing(world.accountId);
  expect(learnt).toMatchObject({ limit: 300, limitFrom: "service", left: 50 });

  // Someone else signs in on this computer (the first person's sign-in ends): their guard knows nothing of it.
  await world.signInAs("demo-proplus");
  expect(guard().learntQuota()).toEqual({ accounts: {} });

  // The first person signs out (nothing of theirs stays in the cache) and in again: the guard knows the quota.
  await world.signInAs("demo-pro");
  await session.signOut();
  await world.signInAs("demo-pro");
  expect(guard().standing(world.accountId)).toEqual({ ...learnt, spent: 0 });
  expect(guard().current.maxShare).toBe(0.5);
  const sent = requestsTo(BULK);
  const [held] = messagesOf(await property(freshIds(60), [["unit_count"]], fakeInvocation()));
  expect(held).toMatch(/up to 60 properties of the bulk export quota, more than the 50 left of 300\./);
  expect(requestsTo(BULK)).toBe(sent);

  // It is kept again in the new sign-in's cache: a reload after this sign-in still knows it.
  await learntQuotaKept(session.requireSignedIn().data);
  await world.signInAs("demo-pro");
  expect(guard().standing(world.accountId).left).toBe(50);
});
