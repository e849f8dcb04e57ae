/**
 * Who may act on an export job: the person who submitted it, known by a stable id and the job by its canonical
 * id. An upper-case spelling of someone else's job id is still someone else's job, and a name issued again
 * after `users revoke` belongs to a new person who inherits none of the old one's jobs.
 */
import type { RunningSandbox } from "../../sandbox/server";
import { revokeUser } from "../../relay/users/userAdmin";
import { startTestRelay, startTestSandbox, type TestRelay } from "./support/relayHarness";

let sandbox: RunningSandbox;
let relay: TestRelay;
let propertyIds: number[];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  relay = await startTestRelay(sandbox);
  propertyIds = sandbox
    .dataset()
    .properties.slice(0, 2)
    .map((property) => property.id);
});

afterAll(async () => {
  await relay?.close();
  await sandbox?.close();
});

async function submitJob(key: string): Promise<string> {
  const submitted = await relay.api(key, "/v1/bulk_api/jobs", {
    report_type: "property",
    output_format: "csv",
    start_date: "2026-10-01",
    end_date: "2026-10-02",
    property_ids: propertyIds,
  });
  expect(submitted.status).toBeLessThan(300);
  return ((await submitted.json()) as { job_id: string }).job_id;
}

const listed = async (key: string) =>
  ((await (await relay.api(key, "/v1/bulk_api/jobs")).json()) as { jobs: { job_id: string }[] }).jobs.map(
    (job) => job.job_id.toLowerCase(),
  );

test("an upper-case spelling of another person's job id is refused like the id itself, for an admin too", async () => {
  const owner = await relay.addUser("analyst-ines", [100]);
  const admin = await relay.addUser("ops-admin-jun", [100], true);
  const jobId = await submitJob(owner);
  for (const spelling of [jobId, jobId.toUpperCase()]) {
    const answer = await relay.api(admin, `/v1/bulk_api/jobs/${spelling}`);
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as { message: string }).message).toMatch(/only its owner/);
  }
  // The owner's own upper-case spelling is their job: the relay lets it through (the service answers it).
  expect((await relay.api(owner, `/v1/bulk_api/jobs/${jobId.toUpperCase()}`)).status).not.toBe(403);
});

test("a name issued again after revoke is a new person: the old holder's jobs are not theirs", async () => {
  const first = await relay.addUser("analyst-sam", [100]);
  const jobId = await submitJob(first);
  // Another key of the same person, while they hold one, sees the job.
  const second = await relay.addUser("analyst-sam", [100]);
  expect((await relay.api(second, `/v1/bulk_api/jobs/${jobId}`)).status).toBe(200);
  expect(await listed(second)).toContain(jobId.toLowerCase());

  await revokeUser(relay.relay.store.users, "analyst-sam");
  const newcomer = await relay.addUser("analyst-sam", [100]);
  expect((await relay.api(newcomer, `/v1/bulk_api/jobs/${jobId}`)).status).toBe(403);
  expect((await relay.api(newcomer, `/v1/bulk_api/jobs/${jobId}/results`)).status).toBe(403);
  expect(await listed(newcomer)).not.toContain(jobId.toLowerCase());
});
