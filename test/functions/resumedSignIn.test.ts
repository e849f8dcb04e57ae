/**
 * Excel on the web calculates a workbook's RENT cells as it opens, before the pane has resumed the person's
 * kept sign-in. A cell called while the resume is under way waits for it and answers, rather than turning its
 * saved value into `#N/A` "Not signed in"; with nothing to resume it says so at once.
 */
import { accounts } from "../../src/functions/accountFunctions";
import { session } from "../../src/session/session";
import { SignInController } from "../../src/taskpane/signInController";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";
import { clientForm, newSettings, newVault } from "../taskpane/support/paneHarness";

let env: SignedInSandbox;

beforeAll(async () => {
  env = await startSignedInSandbox("demo-pro");
  await session.signOut();
});

afterAll(() => env.close());

it("answers a cell called while a kept sign-in is being resumed, once it has resumed", async () => {
  const { settings } = newSettings();
  const { vault } = newVault();
  const before = new SignInController({ session, settings, vault });
  await before.signIn(clientForm(env.sandbox, "demo-pro", { remember: true }));
  // Excel restarts: the runtime starts over with nobody signed in and the secret kept.
  await session.signOut();

  const restarted = new SignInController({ session, settings, vault });
  const resumed = restarted.resume();
  const cell = accounts(fakeInvocation("Sheet1!A1"));
  await resumed;
  const table = await cell;
  expect(table[0]).toEqual(["id", "name"]);
  expect(table.length).toBeGreaterThan(1);
  await session.signOut();
});

it("says Not signed in at once when there is no sign-in and none being resumed", async () => {
  await expect(accounts(fakeInvocation("Sheet1!A1"))).rejects.toMatchObject({
    message: expect.stringMatching(/^Not signed in/),
  });
});
