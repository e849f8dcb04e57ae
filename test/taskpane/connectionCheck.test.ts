import type { RunningSandbox } from "../../sandbox/server";
import { ConnectionCheckController } from "../../src/taskpane/connectionCheckController";
import { describeError } from "../../src/taskpane/messages";
import { SignInController } from "../../src/taskpane/signInController";
import { clientForm, newSession, newSettings, newVault, startPaneSandbox } from "./support/paneHarness";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startPaneSandbox({
    renamedBodyFields: [{ operationId: "searchGeoBoundaries", from: "query", to: "q" }],
  });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.counters.reset());

describe("Check connection in the pane", () => {
  it("before sign-in, checks the service and credentials typed in the form", async () => {
    const checker = new ConnectionCheckController(newSession());
    const form = clientForm(sandbox, "demo-pro");
    const seen: string[] = [];

    const run = await checker.run(form, { onProbe: (probe) => seen.push(probe.family) });

    expect(run.usedSession).toBe(false);
    expect(run.config.serviceUrl).toBe(sandbox.url);
    expect(run.report.probes[0]).toMatchObject({ family: "Token", outcome: "answered" });
    expect(seen).toEqual(run.report.probes.map((probe) => probe.family));
    expect(run.report.probes.find((probe) => probe.family === "Geo search")).toMatchObject({
      outcome: "refused",
      message: "Unknown parameter: query",
    });
    expect(sandbox.counters.total()).toBe(run.report.requestsSent);
  });

  it("signed in, reuses the session's token: no token request, the same service", async () => {
    const session = newSession();
    await new SignInController({ session, ...newSettings(), vault: newVault().vault }).signIn(
      clientForm(sandbox, "demo-pro"),
    );
    sandbox.counters.reset();
    const checker = new ConnectionCheckController(session);
    // Signed in, the form's secret is gone; the check does not need it.
    const emptyForm = { ...clientForm(sandbox, "demo-pro"), clientSecret: "", serviceUrl: "" };

    const run = await checker.run(emptyForm);

    expect(run.usedSession).toBe(true);
    expect(run.config.serviceUrl).toBe(sandbox.url);
    expect(run.report.probes[0]).toMatchObject({ family: "Token", outcome: "skipped" });
    expect(run.report.requestsSent).toBe(12);
    expect(sandbox.counters.get("/oauth/token")).toBe(0);
    expect(sandbox.counters.total()).toBe(12);
  });

  it("before sign-in without credentials, says what to type and sends nothing", async () => {
    const checker = new ConnectionCheckController(newSession());

    const failure = await checker
      .run({ ...clientForm(sandbox, "demo-pro"), clientSecret: "" })
      .catch((error: unknown) => error);

    expect(describeError(failure)).toBe("Enter the client ID and the client secret.");
    expect(sandbox.counters.total()).toBe(0);
  });
});
