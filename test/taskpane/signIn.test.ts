import { get } from "idb-keyval";
import { accountsForClient, SHARED_ACCOUNT_ID } from "../../sandbox/data/clients";
import type { RunningSandbox } from "../../sandbox/server";
import { describeError } from "../../src/taskpane/messages";
import { SignInController } from "../../src/taskpane/signInController";
import {
  clientForm,
  newSession,
  newSettings,
  newVault,
  secretOf,
  startPaneSandbox,
} from "./support/paneHarness";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startPaneSandbox();
});

afterAll(async () => {
  await sandbox.close();
});

function pane() {
  const session = newSession();
  const { storage, settings } = newSettings();
  const { vault, store } = newVault();
  let changes = 0;
  let accountChanges = 0;
  const controller = new SignInController({
    session,
    settings,
    vault,
    afterSignIn: async () => {
      changes += 1;
    },
    afterAccountChange: async () => {
      accountChanges += 1;
    },
  });
  return {
    session,
    storage,
    settings,
    vault,
    store,
    controller,
    changes: () => changes,
    accountChanges: () => accountChanges,
  };
}

describe("signing in from the pane", () => {
  it("signs in with a client id and secret, lists the client's accounts and recalculates", async () => {
    const { session, controller, changes } = pane();

    const signedIn = await controller.signIn(clientForm(sandbox, "demo-pro"));

    expect(signedIn.identity).toBe("demo-pro");
    expect(signedIn.accounts.map((a) => a.id).sort()).toEqual(
      accountsForClient("demo-pro")
        .map((a) => a.id)
        .sort(),
    );
    expect(session.current?.accountId).toBe(signedIn.accounts[0]?.id);
    expect(changes()).toBe(1);
  });

  it("signs in with a manual access token", async () => {
    const { controller } = pane();
    const token = sandbox.context.tokens.issueManualToken("demo-base").accessToken;

    const signedIn = await controller.signIn(
      clientForm(sandbox, "demo-base", { method: "manual", clientSecret: "", accessToken: ` ${token} ` }),
    );

    expect(signedIn.identity).toBe("access token");
    expect(signedIn.accounts.map((a) => a.id)).toContain(SHARED_ACCOUNT_ID);
  });

  it("refuses a wrong secret in plain words, without the secret, and stays signed out", async () => {
    const { session, controller, changes } = pane();
    const wrong = "not-the-secret-42";

    const failure = await controller.signIn(clientForm(sandbox, "demo-pro", { clientSecret: wrong })).then(
      () => undefined,
      (error: unknown) => error,
    );

    const text = describeError(failure);
    expect(text).toMatch(/client id or secret was not accepted/i);
    expect(text).not.toContain(wrong);
    expect(session.current).toBeUndefined();
    expect(changes()).toBe(0);
  });

  it("refuses an unknown manual token and says to sign in with a new one", async () => {
    const { session, controller } = pane();
    const form = clientForm(sandbox, "demo-pro", { method: "manual", accessToken: "forged-token-123" });

    const failure = await controller.signIn(form).catch((error: unknown) => error);

    expect(describeError(failure)).toMatch(/sign in again/i);
    expect(describeError(failure)).not.toContain("forged-token-123");
    expect(session.current).toBeUndefined();
  });

  it("says what is missing before asking the service anything", async () => {
    const { controller } = pane();
    const before = sandbox.counters.total();

    await expect(controller.signIn(clientForm(sandbox, "demo-pro", { clientSecret: "" }))).rejects.toThrow(
      "Enter the client ID and the client secret.",
    );
    await expect(
      controller.signIn(clientForm(sandbox, "demo-pro", { method: "manual", accessToken: "  " })),
    ).rejects.toThrow(/Paste the access token/);
    await expect(
      controller.signIn(clientForm(sandbox, "demo-pro", { serviceUrl: "127.0.0.1:4010" })),
    ).rejects.toThrow(/Service URL is not a URL/);
    expect(sandbox.counters.total()).toBe(before);
  });

  it("remembers settings and the chosen account per identity, never a secret", async () => {
    const { controller, storage, settings } = pane();
    await controller.signIn(clientForm(sandbox, "demo-proplus"));
    const other = accountsForClient("demo-proplus").find((a) => a.id !== SHARED_ACCOUNT_ID);
    if (!other) throw new Error("demo-proplus has a second account");

    await controller.selectAccount(other.id);

    expect(settings.load()).toEqual({
      serviceUrl: sandbox.url,
      tokenUrl: `${sandbox.url}/oauth/token`,
      clientId: "demo-proplus",
      method: "client",
      postingTime: "07:00",
    });
    expect(storage.entries().join("\n")).toContain("demo-proplus");
    expect(storage.entries().join("\n")).not.toContain(secretOf("demo-proplus"));

    // The next sign-in of the same identity starts on the account chosen before.
    const next = new SignInController({ session: newSession(), settings, vault: newVault().vault });
    expect((await next.signIn(clientForm(sandbox, "demo-proplus"))).accountId).toBe(other.id);
  });

  it("keeps the secret only when asked, encrypted, resumes with it, and deletes it on sign-out", async () => {
    const { controller, vault, store, settings } = pane();
    await controller.signIn(clientForm(sandbox, "demo-pro", { remember: true }));

    const sealed = await get<{ ciphertext: ArrayBuffer }>("credentials", store);
    expect(sealed).toBeDefined();
    expect(Buffer.from(sealed?.ciphertext ?? new ArrayBuffer(0)).toString("latin1")).not.toContain(
      secretOf("demo-pro"),
    );
    const key = await get<CryptoKey>("key", store);
    expect(key?.extractable).toBe(false);

    // A new pane (after a restart) signs in from the kept secret.
    const restarted = new SignInController({ session: newSession(), settings, vault });
    expect((await restarted.resume())?.identity).toBe("demo-pro");

    await restarted.signOut();
    expect(await vault.recall()).toBeUndefined();
    expect(await get("key", store)).toBeUndefined();
  });

  it("a token sign-in keeps the client id remembered for the next client sign-in", async () => {
    const { controller, settings } = pane();
    await controller.signIn(clientForm(sandbox, "demo-pro"));
    const token = sandbox.context.tokens.issueManualToken("demo-pro").accessToken;

    await controller.signIn(
      clientForm(sandbox, "demo-pro", { method: "manual", clientId: "", accessToken: token }),
    );

    expect(settings.load()).toMatchObject({ clientId: "demo-pro", method: "manual" });
  });

  it("signing in without 'remember' forgets a secret kept earlier", async () => {
    const { controller, vault } = pane();
    await controller.signIn(clientForm(sandbox, "demo-pro", { remember: true }));
    await controller.signIn(clientForm(sandbox, "demo-pro", { remember: false }));
    expect(await vault.recall()).toBeUndefined();
  });

  it("serves cached answers by the daily posting time set in the service settings, and remembers it", async () => {
    const { session, controller, settings } = pane();
    await expect(
      controller.signIn({ ...clientForm(sandbox, "demo-pro"), postingTime: "9am" }),
    ).rejects.toThrow(/HH:MM/);
    expect(session.current).toBeUndefined();

    await controller.signIn({ ...clientForm(sandbox, "demo-pro"), postingTime: "09:30" });

    const schedule = session.requireSignedIn().data.cache.schedule;
    expect(schedule.postingTime).toBe("09:30");
    // 09:30 US Eastern on a summer day is 13:30 UTC.
    expect(schedule.latestPostingAtOrBefore(Date.parse("2026-07-15T14:00:00Z"))).toBe(
      Date.parse("2026-07-15T13:30:00Z"),
    );
    expect(settings.load().postingTime).toBe("09:30");
  });

  it("forgets a kept secret the service no longer accepts", async () => {
    const { vault, settings } = pane();
    settings.save({
      serviceUrl: sandbox.url,
      tokenUrl: `${sandbox.url}/oauth/token`,
      clientId: "demo-pro",
      method: "client",
      postingTime: "07:00",
    });
    await vault.keep({ kind: "client", clientId: "demo-pro", clientSecret: "rotated-away" });
    const controller = new SignInController({ session: newSession(), settings, vault });

    await expect(controller.resume()).rejects.toThrow(/not accepted/);
    expect(await vault.recall()).toBeUndefined();
  });

  it("signs out: the session drops its sign-in and recalculates nothing", async () => {
    const { controller, session, changes, accountChanges } = pane();
    await controller.signIn(clientForm(sandbox, "demo-pro"));
    expect(changes()).toBe(1);
    await controller.signOut();
    expect(session.current).toBeUndefined();
    expect(changes()).toBe(1);
    expect(accountChanges()).toBe(0);
  });
});
