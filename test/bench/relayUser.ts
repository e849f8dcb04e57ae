/**
 * One person of the relay benchmark, in a process of their own (the add-in's session is one per runtime, as
 * in Excel): loads the add-in, says "ready", waits for "go" on stdin, then signs in to the relay with a
 * personal key and opens the reference workbook cold (empty cache). Prints one JSON line with the times.
 *
 *   tsx test/bench/relayUser.ts <service url> <personal key> <workbook cells json file>
 */
import "../support/customFunctionsGlobal";
import "fake-indexeddb/auto";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { session } from "../../src/session/session";
import type { WorkbookCell } from "./referenceWorkbook";
import { evaluateWorkbook, isError } from "./workbookRunner";

async function main(): Promise<void> {
  const [serviceUrl, key, cellsFile] = process.argv.slice(2);
  if (!serviceUrl || !key || !cellsFile)
    throw new Error("usage: relayUser.ts <service url> <key> <cells file>");
  const cells = JSON.parse(readFileSync(cellsFile, "utf8")) as WorkbookCell[];
  console.log("ready");
  const lines = createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => lines.once("line", () => resolve()));
  lines.close();
  const start = performance.now();
  await session.signIn({ serviceUrl, tokenUrl: `${serviceUrl}/oauth/token` }, { kind: "relay", key });
  const signedIn = performance.now();
  const outcomes = await evaluateWorkbook(cells);
  const done = performance.now();
  const errors = outcomes.filter(isError);
  console.log(
    JSON.stringify({
      sign_in_ms: Math.round(signedIn - start),
      cold_ms: Math.round(done - signedIn),
      cells: outcomes.length,
      errors: errors.length,
      first_error: errors[0]?.message,
    }),
  );
  session.signOut();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
