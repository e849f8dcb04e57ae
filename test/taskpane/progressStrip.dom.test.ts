/**
 * @jest-environment ./test/taskpane/support/jsdomWithFetch.ts
 */
import "fake-indexeddb/auto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { JOBS } from "../../src/data/endpoints";
import { Session } from "../../src/session/session";
import { element, StatusLine } from "../../src/taskpane/dom";
import { wireProgressStrip } from "../../src/taskpane/progressStrip";
import { MemoryStorage, SettingsStore } from "../../src/taskpane/settingsStore";
import { wireUsagePanel } from "../../src/taskpane/usagePanel";
import { UsageTracker } from "../../src/taskpane/usageTracker";

const PAGE = readFileSync(join(__dirname, "../../src/taskpane/taskpane.html"), "utf8");
const SERVICE = "http://127.0.0.1:4010";
/** The limit the fake service announces on every answer: not the documented 100, so the words must read it. */
const ANNOUNCED = { limit: 60, windowSeconds: 300 };
/** One turn of the pacing at the announced limit: (60 - 30 at once) per 300 s. */
const TURN_MS = 10_000;

/** The service as the pane's requests need it; every answer announces the limit, as the live service may. */
const service: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const body = request.url.startsWith(`${SERVICE}/v1/accounts`)
    ? { data: [{ id: 100, name: "Shared Portfolio" }], pagination: { current_page: 1 } }
    : { jobs: [], pagination: { current_page: 1 } };
  return new Response(JSON.stringify(body), {
    headers: {
      "Content-Type": "application/json",
      "X-RateLimit-Limit": String(ANNOUNCED.limit),
      "X-RateLimit-Reset-After": String(ANNOUNCED.windowSeconds),
    },
  });
};

/** A few turns of the page's event loop: answers arrive, the coalesced redraws run. */
async function flush(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** The pacing's clock: it moves only when the test moves it, and a sleep ends once the clock passes its end. */
function heldClock(startMs: number) {
  let nowMs = startMs;
  const sleepers: { at: number; wake: () => void }[] = [];
  return {
    now: () => nowMs,
    sleep: (ms: number) => new Promise<void>((wake) => sleepers.push({ at: nowMs + ms, wake })),
    async advance(ms: number): Promise<void> {
      nowMs += ms;
      for (const due of sleepers.filter((sleeper) => sleeper.at <= nowMs)) {
        sleepers.splice(sleepers.indexOf(due), 1);
        due.wake();
      }
      await flush();
    },
  };
}
const text = (id: string) => element(id).textContent;
const usageLines = () => [...element("usage-lines").querySelectorAll("li")].map((item) => item.textContent);

/** Shown on screen: neither it nor any element around it is hidden. */
function shown(target: HTMLElement): boolean {
  for (let at: HTMLElement | null = target; at; at = at.parentElement) if (at.hidden) return false;
  return true;
}

/** What the Fluent tab list does when a tab is chosen: every other tab's panel is hidden. */
function openTab(name: string): void {
  for (const panel of document.querySelectorAll<HTMLElement>('[role="tabpanel"]'))
    panel.hidden = panel.id !== `panel-${name}`;
}

it("shows the paced work on any tab without a click, with done of total and why, and hides when it ends", async () => {
  document.body.innerHTML = /<body>([\s\S]*)<\/body>/.exec(PAGE)?.[1] ?? "";
  element("pane-main").hidden = false;
  const clock = heldClock(Date.parse("2026-11-02T09:00:00Z"));
  const session = new Session(service, {
    databaseName: "progress-strip-test",
    now: clock.now,
    sleep: clock.sleep,
  });
  wireProgressStrip(session);
  wireUsagePanel(session, new UsageTracker(clock.now), new StatusLine(element("status")), {
    settings: new SettingsStore(new MemoryStorage()),
    afterAllow: async () => undefined,
  });
  await session.signIn(
    { serviceUrl: SERVICE, tokenUrl: `${SERVICE}/oauth/token` },
    { kind: "manual", accessToken: "t-1" },
  );
  openTab("insert");
  const strip = element("progress-strip");
  expect(strip.getAttribute("role")).toBe("status");
  expect(strip.getAttribute("aria-live")).toBe("polite");
  await flush();
  expect(shown(strip)).toBe(false);

  // What the cells of a recalculation do: the pane is not involved and nothing in it is pressed.
  const focused = element("insert-kind");
  focused.focus();
  const { data } = session.requireSignedIn();
  const requests = Array.from({ length: 40 }, (_, index) =>
    data.send(JOBS, { page: index + 1, per_page: 1 }),
  );
  await flush();

  // The announced burst (30) went at once; 10 wait a turn of 10 s each.
  expect(shown(strip)).toBe(true);
  expect(text("progress-waiting")).toBe("Waiting: 10 requests to the service.");
  expect(text("progress-done")).toBe("30 of 40 requests done, about 2 min left at the service's pace.");
  expect(text("progress-why")).toBe(
    "Why: the service allows 60 requests per 5 minutes (the limit it announced).",
  );
  expect(element<HTMLProgressElement>("progress-bar")).toMatchObject({ value: 30, max: 40 });
  expect(document.activeElement).toBe(focused);
  // The Account tab's usage lines, kept up to date while another tab is open: never "no waits" now.
  expect(usageLines()).toContain(
    "Rate limit: 10 requests are waiting for their turn at the service's pace (progress above).",
  );
  expect(usageLines()).not.toContain("Rate limit: no waits so far.");

  // The pace lets one more through per turn, and the strip follows by itself.
  await clock.advance(TURN_MS);
  await flush();
  expect(text("progress-done")).toBe("31 of 40 requests done, about 2 min left at the service's pace.");
  expect(text("progress-waiting")).toBe("Waiting: 9 requests to the service.");

  for (let turn = 0; turn < 9; turn++) await clock.advance(TURN_MS);
  await Promise.all(requests);
  await flush();
  expect(shown(strip)).toBe(false);
  expect(usageLines()).toContain(
    "Rate limit: requests waited 10 times for their turn at the service's pace.",
  );
  expect(document.activeElement).toBe(focused);
  session.signOut();
});

it("shows the export jobs cells wait for, with the time their size usually takes, and hides when they end", async () => {
  document.body.innerHTML = /<body>([\s\S]*)<\/body>/.exec(PAGE)?.[1] ?? "";
  element("pane-main").hidden = false;
  const clock = heldClock(Date.parse("2026-11-02T09:00:00Z"));
  const session = new Session(service, { databaseName: "progress-strip-jobs-test", now: clock.now });
  wireProgressStrip(session);
  await session.signIn(
    { serviceUrl: SERVICE, tokenUrl: `${SERVICE}/oauth/token` },
    { kind: "manual", accessToken: "t-1" },
  );
  openTab("exports");
  const strip = element("progress-strip");

  // As RENT.HISTORY's exports note a job: followed from its submission, then expected to end at a time.
  const job = session.requireSignedIn().data.exportJobs.follow();
  await flush();
  expect(shown(strip)).toBe(true);
  expect(text("progress-waiting")).toBe("Waiting: 1 export job.");
  expect(text("progress-jobs")).toBe("Export job: being submitted.");
  expect([element("progress-done").hidden, element("progress-bar").hidden]).toEqual([true, true]);
  expect(text("progress-why")).toBe(
    "Why: RENT.HISTORY's days come from export jobs, which the service builds in minutes.",
  );

  job.expectEndAt(clock.now() + 4 * 60_000);
  await flush();
  expect(text("progress-jobs")).toBe("Export job: about 4 min left, the service's usual time for the size.");

  job.end();
  await flush();
  expect(shown(strip)).toBe(false);
  session.signOut();
});
