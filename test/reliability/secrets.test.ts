/**
 * Secrets scan: a session of the add-in signs in from the pane's controller (remembering the secret), runs
 * the reference workbook, meets a token revocation, 500s, a refused account, a wrong secret and a revoked
 * manual token; then every place a secret could leak is searched for every client secret and every access
 * token issued: request URLs seen by the sandbox and by fetch, console output, error texts, cell values,
 * stored settings and everything in IndexedDB (response cache and secret vault).
 */
import "fake-indexeddb/auto";
import { format } from "node:util";
import { DEMO_CLIENTS } from "../../sandbox/data/clients";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { market, narrative } from "../../src/functions/marketFunctions";
import { session } from "../../src/session/session";
import { SecretVault } from "../../src/taskpane/secretVault";
import { MemoryStorage, SettingsStore } from "../../src/taskpane/settingsStore";
import { SignInController, type SignInForm } from "../../src/taskpane/signInController";
import { referenceWorkbook, WORKBOOK_CLIENT } from "../bench/referenceWorkbook";
import { evaluateWorkbook } from "../bench/workbookRunner";
import { fakeInvocation } from "../support/invocation";
import { dumpIndexedDb } from "./support/indexedDbDump";

const WRONG_SECRET = "not-the-secret-4f9c2a7e";
const CONSOLE_METHODS = ["log", "info", "warn", "error", "debug", "trace"] as const;

/** Where secrets could show up, each a list of texts. */
const seen = {
  sandboxUrls: [] as string[],
  fetchUrls: [] as string[],
  console: [] as string[],
  errorTexts: [] as string[],
  cellValues: [] as string[],
  storedSettings: [] as string[],
  indexedDb: [] as string[],
};
const issuedTokens = new Set<string>();

let sandbox: RunningSandbox;
const realFetch = globalThis.fetch;

/** Notes every URL fetched, and every access token the token endpoint hands out (to search for it). */
const recordingFetch: typeof fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  seen.fetchUrls.push(url);
  const response = await realFetch(input, init);
  if (url.endsWith("/oauth/token") && response.ok) {
    const body = (await response.clone().json()) as { access_token?: string };
    if (body.access_token) issuedTokens.add(body.access_token);
  }
  return response;
};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000, rateLimitWindowSeconds: 1 });
  sandbox.app.server.on("request", (request) => seen.sandboxUrls.push(request.url ?? ""));
  globalThis.fetch = recordingFetch;
  for (const method of CONSOLE_METHODS) {
    jest.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      seen.console.push(format(...args));
    });
  }
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  jest.restoreAllMocks();
  session.signOut();
  await sandbox.close();
});

/** Runs `work`, keeping the text of whatever it throws (message, name, details, everything enumerable). */
async function keepErrorText(work: () => Promise<unknown>): Promise<void> {
  try {
    const value = await work();
    seen.cellValues.push(JSON.stringify(value));
  } catch (error) {
    seen.errorTexts.push(`${String(error)} ${JSON.stringify(error)} ${(error as Error).stack ?? ""}`);
  }
}

it("never puts a client secret or an access token in a URL, log line, error, cell, setting or stored entry", async () => {
  const storage = new MemoryStorage();
  const pane = new SignInController({
    session,
    settings: new SettingsStore(storage),
    vault: new SecretVault(),
  });
  session.useDataOptions({
    databaseName: `secrets-${process.pid}`,
    pacing: { limit: 1_000_000, windowMs: 1000, burst: 1_000_000 },
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  });
  const form: SignInForm = {
    serviceUrl: sandbox.url,
    tokenUrl: `${sandbox.url}/oauth/token`,
    method: "client",
    clientId: WORKBOOK_CLIENT.clientId,
    clientSecret: WORKBOOK_CLIENT.clientSecret,
    accessToken: "",
    remember: true,
  };

  // A wrong secret: the refusal must not echo it.
  await keepErrorText(() => pane.signIn({ ...form, clientSecret: WRONG_SECRET }));
  await pane.signIn(form);

  const workbook = referenceWorkbook(sandbox.context.dataset());
  sandbox.context.tokens.revoke({ clientId: WORKBOOK_CLIENT.clientId });
  const outcomes = await evaluateWorkbook(workbook.cells);
  for (const outcome of outcomes) {
    if ("error" in outcome) seen.errorTexts.push(outcome.message);
    else seen.cellValues.push(JSON.stringify(outcome.value));
  }

  const msa = workbook.cells.find((cell) => cell.fn === "MARKET");
  if (msa?.fn !== "MARKET") throw new Error("The workbook has no market cell");
  // Cells that fail: 500s until retries run out, and an account this sign-in may not use.
  sandbox.context.faults.update({ errorRate: 1 });
  await keepErrorText(() => narrative(msa.boundary.id, "sales", fakeInvocation()));
  sandbox.context.faults.reset();
  await keepErrorText(() =>
    market([[msa.boundary.id]], [["rent_avg_t30"]], [["account", 103]], fakeInvocation()),
  );

  // A manual token, remembered, used, then revoked.
  const manual = sandbox.context.tokens.issueManualToken("demo-proplus").accessToken;
  issuedTokens.add(manual);
  await pane.signIn({ ...form, method: "manual", accessToken: manual });
  await keepErrorText(() => narrative(msa.boundary.id, "rent", fakeInvocation()));
  sandbox.context.tokens.revoke({ accessToken: manual });
  await keepErrorText(() => narrative(msa.boundary.id, "overview", fakeInvocation()));

  seen.storedSettings.push(...storage.entries());
  seen.indexedDb.push(...(await dumpIndexedDb()));
  await pane.signOut();
  seen.indexedDb.push(...(await dumpIndexedDb()));

  // The scan looked at real material: every place holds something, and tokens were issued and renewed.
  for (const [place, texts] of Object.entries(seen)) {
    if (place !== "console") expect({ place, empty: texts.length === 0 }).toEqual({ place, empty: false });
  }
  expect(issuedTokens.size).toBeGreaterThanOrEqual(3);
  expect(seen.errorTexts.some((text) => /401|sign in|token|refused/i.test(text))).toBe(true);

  const secrets = [
    ...DEMO_CLIENTS.map((client) => ({ name: `secret of ${client.clientId}`, value: client.clientSecret })),
    { name: "the wrong secret typed", value: WRONG_SECRET },
    ...[...issuedTokens].map((token, index) => ({ name: `access token #${index + 1}`, value: token })),
  ];
  const leaks = Object.entries(seen).flatMap(([place, texts]) =>
    secrets.flatMap(({ name, value }) =>
      texts.some((text) => text.includes(value) || text.includes(encodeURIComponent(value)))
        ? [`${name} in ${place}`]
        : [],
    ),
  );
  expect(leaks).toEqual([]);
});
