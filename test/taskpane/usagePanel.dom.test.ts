import { MARKET_SURVEY } from "../../src/data/endpoints";
/**
 * @jest-environment ./test/taskpane/support/jsdomWithFetch.ts
 */
import "fake-indexeddb/auto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Session } from "../../src/session/session";
import { element, StatusLine } from "../../src/taskpane/dom";
import { wireUsagePanel } from "../../src/taskpane/usagePanel";
import { UsageTracker } from "../../src/taskpane/usageTracker";

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
  wireUsagePanel(session, new UsageTracker(), new StatusLine(element("status")));
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
