/**
 * @jest-environment ./test/taskpane/support/jsdomWithFetch.ts
 */
import "fake-indexeddb/auto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ApiError } from "../../src/api/errors";
import { MARKET_SURVEY } from "../../src/data/endpoints";
import { Session } from "../../src/session/session";
import { element, StatusLine } from "../../src/taskpane/dom";
import { MemoryStorage, SettingsStore } from "../../src/taskpane/settingsStore";
import { wireUsagePanel } from "../../src/taskpane/usagePanel";
import { UsageTracker } from "../../src/taskpane/usageTracker";
import { PROPERTY_DETAILS } from "../../src/data/batchedEndpoints";

const PAGE = readFileSync(join(__dirname, "../../src/taskpane/taskpane.html"), "utf8");
const SERVICE = "http://127.0.0.1:4010";

/** Signs in, then answers every market survey with a bare 429: no Retry-After, no rate-limit headers. */
const service: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json" } });
  if (request.url === `${SERVICE}/oauth/token`) return json({ access_token: "t-1", expires_in: 7200 });
  if (request.url.startsWith(`${SERVICE}/v1/accounts`))
    return json({ data: [{ id: 100, name: "Shared Portfolio" }], pagination: { current_page: 1 } });
  return new Response("You have exceeded the rate limit for this API.", { status: 429 });
};

const lines = () => [...element("usage-lines").querySelectorAll("li")].map((item) => item.textContent);
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

it("shows 'rate limited until HH:MM' in the usage line as soon as a cell's request meets a long wait", async () => {
  document.body.innerHTML = /<body>([\s\S]*)<\/body>/.exec(PAGE)?.[1] ?? "";
  const session = new Session(service, { databaseName: "usage-panel-test" });
  wireUsagePanel(session, new UsageTracker(), new StatusLine(element("status")), {
    settings: new SettingsStore(new MemoryStorage()),
    afterAllow: async () => undefined,
  });
  await session.signIn(
    { serviceUrl: SERVICE, tokenUrl: `${SERVICE}/oauth/token` },
    { kind: "manual", accessToken: "t-1" },
  );
  await flush();
  expect(element("usage-section").hidden).toBe(false);
  expect(lines()).toContain("Rate limit: no waits so far.");

  // What a RENT cell does: the pane is not involved, and its Update button is not pressed.
  const refused = await session
    .requireSignedIn()
    .data.read(MARKET_SURVEY, { compSetId: 10001 }, { accountId: session.requireSignedIn().accountId })
    .catch((error: Error) => error.message);
  expect(refused).toMatch(/^Rate limited until \d{2}:\d{2}: the service refuses requests until then\.$/);
  await flush();
  expect(lines()).toContain(refused);
});

it("shows a pull the quota guard held, allows it once with a click, and keeps the share a person sets", async () => {
  document.body.innerHTML = /<body>([\s\S]*)<\/body>/.exec(PAGE)?.[1] ?? "";
  const session = new Session(service, { databaseName: "usage-panel-quota-test" });
  const settings = new SettingsStore(new MemoryStorage());
  let recalculations = 0;
  wireUsagePanel(session, new UsageTracker(), new StatusLine(element("status")), {
    settings,
    afterAllow: async () => void recalculations++,
  });
  const signIn = () =>
    session.signIn(
      { serviceUrl: SERVICE, tokenUrl: `${SERVICE}/oauth/token` },
      { kind: "manual", accessToken: "t-1" },
    );
  await signIn();
  await flush();
  const allow = element<HTMLButtonElement>("quota-allow-button");
  expect([element("quota-held").hidden, allow.hidden]).toEqual([true, true]);
  expect(element<HTMLInputElement>("quota-share").value).toBe("10");

  // A block of 600 ids: held before any request (the fake service would refuse it with a 429).
  const { data, accountId } = session.requireSignedIn();
  const ids = Array.from({ length: 600 }, (_, index) => 100_001 + index);
  const held = await data.readMany(PROPERTY_DETAILS, {}, ids, { accountId });
  expect((held.records.get(100_001) as Error).message).toMatch(
    /^Held before spending: .* up to 600 properties/,
  );
  expect([element("quota-held").hidden, allow.hidden]).toEqual([false, false]);
  expect(element("quota-held").textContent).toMatch(/up to 600 properties .* "Allow this pull"/);

  allow.click();
  await flush();
  expect(recalculations).toBe(1);
  expect(data.quota.held).toBeUndefined();
  expect([element("quota-held").hidden, allow.hidden]).toEqual([true, true]);

  // The share a person sets applies now and to the next sign-in.
  const share = element<HTMLInputElement>("quota-share");
  share.value = "25";
  share.dispatchEvent(new Event("change"));
  expect(data.quota.current.maxShare).toBe(0.25);
  await signIn();
  await flush();
  expect(session.requireSignedIn().data.quota.current.maxShare).toBe(0.25);
  expect(share.value).toBe("25");

  // A percent from 1 to 100, both ends included; anything else is refused and changes nothing.
  const setShare = (value: string) => {
    share.value = value;
    share.dispatchEvent(new Event("change"));
    return session.requireSignedIn().data.quota.current.maxShare;
  };
  expect(setShare("1")).toBe(0.01);
  expect(setShare("100")).toBe(1);
  expect(setShare("0")).toBe(1);
  expect(element("status").textContent).toContain("The share is a percent from 1 to 100.");
  expect(setShare("101")).toBe(1);
});

/** Signs in and answers property details: each requested id a record, as bulk details does. */
const detailsService: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  if (!url.pathname.endsWith("/properties/bulk_details")) return service(input, init);
  const ids = (url.searchParams.get("property_ids") ?? "").split(",").map(Number);
  const data = ids.map((id) => ({
    id: String(id),
    type: "properties",
    attributes: { property_id: id, property_name: `Property ${id}` },
  }));
  return new Response(JSON.stringify({ data }), { headers: { "Content-Type": "application/json" } });
};

it("updates the quota line by itself as pulls spend, and keeps the service's figures across a sign-in", async () => {
  document.body.innerHTML = /<body>([\s\S]*)<\/body>/.exec(PAGE)?.[1] ?? "";
  const session = new Session(detailsService, { databaseName: "usage-panel-standing-test" });
  wireUsagePanel(session, new UsageTracker(), new StatusLine(element("status")), {
    settings: new SettingsStore(new MemoryStorage()),
    afterAllow: async () => undefined,
  });
  const signIn = () =>
    session.signIn(
      { serviceUrl: SERVICE, tokenUrl: `${SERVICE}/oauth/token` },
      { kind: "manual", accessToken: "t-1" },
    );
  await signIn();
  await flush();
  const quotaLine = () => lines().find((line) => line?.startsWith("Bulk export quota"));
  expect(quotaLine()).toMatch(/limit 5,000 properties .*at least 0 used .*at most 5,000 left\.$/);

  // What a block of cells does: a pull through the data layer; the pane's Update button is not pressed.
  const pull = async (count: number, first: number) => {
    const { data, accountId } = session.requireSignedIn();
    const ids = Array.from({ length: count }, (_, index) => first + index);
    const { records } = await data.readMany(PROPERTY_DETAILS, {}, ids, { accountId });
    expect(records.get(first)).not.toBeInstanceOf(Error);
    await flush();
  };
  await pull(120, 200_001);
  expect(quotaLine()).toMatch(/at least 120 used .*at most 4,880 left\.$/);

  // The service named the limit and usage (its quota error); what is spent after counts on top of them.
  const { data, accountId } = session.requireSignedIn();
  data.quota.learn(
    accountId,
    new ApiError("quota_exceeded", "quota", { quotaLimit: 20_000, quotaUsage: 19_500 }),
  );
  await pull(10, 300_001);
  const named = `Bulk export quota of account ${accountId}: limit 20,000 properties (as the service named it), 19,510 used, 490 left.`;
  expect(quotaLine()).toBe(named);

  await session.signOut();
  await signIn();
  await flush();
  expect(quotaLine()).toBe(named);
});
