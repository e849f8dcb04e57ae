import { JOB, SUBMIT_JOB } from "../../src/data/endpoints";
/**
 * The add-in with the relay as its only service: the "Team relay" sign-in (a personal key), cells answered
 * through the relay, an export file downloaded from the relay's own origin, the relay's secret in no cell,
 * and a revoked key failing the next cell with a message that says what to do.
 */
import type { RunningSandbox } from "../../sandbox/server";
import { relayServiceUrl } from "../../relay/options";
import { revokeUser } from "../../relay/users/userAdmin";
import { property } from "../../src/functions/propertyFunctions";
import { session } from "../../src/session/session";
import { downloadJobResults } from "../../src/taskpane/jobDownload";
import { fakeInvocation } from "../support/invocation";
import { UNPACED } from "../support/signedInSandbox";
import { RELAY_CLIENT, startTestRelay, startTestSandbox, type TestRelay } from "./support/relayHarness";

let sandbox: RunningSandbox;
let relay: TestRelay;
let key: string;
let ids: number[];
const urlsFetched: string[] = [];

const recordingFetch: typeof fetch = (input, init) => {
  urlsFetched.push(input instanceof Request ? input.url : String(input));
  return fetch(input, init);
};

beforeAll(async () => {
  sandbox = await startTestSandbox();
  relay = await startTestRelay(sandbox);
  key = await relay.addUser("analyst", [100, 103]);
  ids = sandbox
    .dataset()
    .properties.slice(0, 3)
    .map((record) => record.id);
  session.useDataOptions(UNPACED);
  const serviceUrl = relayServiceUrl(relay.url);
  await session.signIn({ serviceUrl, tokenUrl: `${serviceUrl}/oauth/token` }, { kind: "relay", key });
});

afterAll(async () => {
  session.signOut();
  await relay.close();
  await sandbox.close();
});

test("signed in with a personal key, the pane lists the person's accounts and cells answer through the relay", async () => {
  const state = session.requireSignedIn();
  expect(state.identity).toBe("team relay key");
  expect(state.accounts.map((account) => account.id)).toEqual([100, 103]);
  const expected = sandbox.dataset().propertyById.get(ids[0] as number)?.name;
  const cells = await property([ids], [["property_name"]], fakeInvocation());
  expect(cells[0]?.[0]).toBe(expected);
  expect(JSON.stringify(cells)).not.toContain(RELAY_CLIENT.clientSecret);
});

test("an export file comes from the relay's own origin", async () => {
  const { data } = session.requireSignedIn();
  const job = await data.send(SUBMIT_JOB, {
    report_type: "property",
    output_format: "csv",
    start_date: "2026-10-01",
    end_date: "2026-10-01",
    property_ids: ids,
  });
  for (let polls = 0; (await data.send(JOB, job.job_id)).status !== "succeeded"; polls++) {
    if (polls > 100) throw new Error("The export job did not finish.");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const file = await downloadJobResults(data, job.job_id, { fetch: recordingFetch });
  expect(new TextDecoder().decode(file.bytes)).toContain(String(ids[0]));
  expect(urlsFetched.length).toBeGreaterThanOrEqual(2);
  for (const url of urlsFetched) expect(new URL(url).origin).toBe(new URL(relay.url).origin);
});

test("a revoked key fails the next cell with a message that says what to do", async () => {
  await revokeUser(relay.relay.store.users, "analyst");
  await session.requireSignedIn().data.clearCache();
  await expect(property([[ids[1]]], [["asking_rent"]], fakeInvocation())).rejects.toMatchObject({
    message: expect.stringMatching(/no longer accepts your personal key.*Ask your relay admin for a new key/),
  });
});
