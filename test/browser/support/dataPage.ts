import { JOB, SUBMIT_JOB } from "../../../src/data/endpoints";
/**
 * Runs in Chromium: the whole data layer (typed client, token manager, gate, batchers, cache over the
 * browser's IndexedDB), bundled by esbuild, talking to a sandbox over HTTP with CORS, as the add-in does.
 */
import { ServiceClient } from "../../../src/api/client";
import { TokenManager } from "../../../src/api/tokens";
import { DataLayer } from "../../../src/data/dataLayer";
import { PROPERTY_DETAILS } from "../../../src/data/batchedEndpoints";

interface PageRun {
  sandboxUrl: string;
  accountId: number;
  ids: number[];
}

function layer(sandboxUrl: string): DataLayer {
  const tokenUrl = `${sandboxUrl}/oauth/token`;
  const tokens = new TokenManager({
    tokenUrl,
    credentials: { kind: "client", clientId: "demo-pro", clientSecret: "sandbox-secret-pro" },
  });
  return new DataLayer({
    client: new ServiceClient({ serviceUrl: sandboxUrl, tokenUrl }, tokens),
    caller: "demo-pro",
    databaseName: "rent-market-browser-data-test",
    pacing: { limit: 1000, windowMs: 1000, burst: 1000 },
  });
}

/** Property names for the ids, and where each came from. */
async function propertyNames({ sandboxUrl, accountId, ids }: PageRun) {
  const details = await layer(sandboxUrl).readMany(PROPERTY_DETAILS, {}, ids, { accountId });
  return ids.map((id) => {
    const record = details.records.get(id);
    if (!record || record instanceof Error) throw record ?? new Error(`No answer for ${id}`);
    return { id, name: record.value.property_name, source: record.source };
  });
}

/** Submits a one-property export, waits for it, and returns the first line of its CSV file. */
async function exportHeader({ sandboxUrl, ids }: PageRun): Promise<string> {
  const data = layer(sandboxUrl);
  const today = new Date().toISOString().slice(0, 10);
  const job = await data.send(SUBMIT_JOB, {
    report_type: "property",
    output_format: "csv",
    property_ids: ids.slice(0, 1),
    start_date: today,
    end_date: today,
  });
  for (let polls = 0; polls < 200; polls++) {
    if ((await data.send(JOB, job.job_id)).status === "succeeded") break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const text = new TextDecoder().decode(await data.jobResults(job.job_id));
  return text.split(/\r?\n/)[0] ?? "";
}

Object.assign(window, { dataPage: { propertyNames, exportHeader } });
