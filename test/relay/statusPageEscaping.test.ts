/**
 * The admins' status page (/relay/) draws the relay's figures, which carry names people were given (`users add`
 * takes any text), into tables. A name is shown as text, never read as markup: a name written as HTML adds no
 * element to the page. The page and its script are the relay's own, run in a DOM (jsdom) against the running
 * relay, as an admin's browser would.
 */
import { JSDOM } from "jsdom";
import type { RunningSandbox } from "../../sandbox/server";
import { until } from "./support/movingClock";
import { startTestRelay, startTestSandbox, type TestRelay } from "./support/relayHarness";

/** A name that would add an element, with an id to find it by, were it ever read as HTML. */
const MARKUP_NAME = '<img id="injected" src="x"><b id="bold">Ann</b>';

let sandbox: RunningSandbox;
let relay: TestRelay;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  relay = await startTestRelay(sandbox);
});

afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
});

test("the status page shows a name written as HTML as text", async () => {
  const admin = await relay.addUser("admin", [], true);
  const named = await relay.addUser(MARKUP_NAME, [100]);
  expect((await relay.api(named, "/v1/accounts")).status).toBe(200);

  const page = await (await fetch(`${relay.url}/relay/`)).text();
  const script = await (await fetch(`${relay.url}/relay/status.js`)).text();
  const dom = new JSDOM(page, { url: `${relay.url}/relay/`, runScripts: "outside-only" });
  const { window } = dom;
  try {
    // The page's own fetches, of its own origin, reach the relay.
    Object.assign(window, {
      fetch: (input: string, init?: RequestInit) => fetch(new URL(input, window.location.href), init),
    });
    window.eval(script);
    const document = window.document;
    (document.getElementById("admin-key") as HTMLInputElement).value = admin;
    document.getElementById("key-form")?.dispatchEvent(new window.Event("submit", { cancelable: true }));
    const cells = () => [...document.querySelectorAll("#figures td")].map((cell) => cell.textContent);
    await until("the status tables", () => document.querySelectorAll("#figures section").length > 0);

    expect(document.getElementById("error")?.textContent).toBe("");
    expect(cells()).toContain(MARKUP_NAME);
    expect(document.getElementById("injected")).toBeNull();
    expect(document.getElementById("bold")).toBeNull();
    expect(document.querySelectorAll("#figures img, #figures b")).toHaveLength(0);
  } finally {
    window.close();
  }
});
