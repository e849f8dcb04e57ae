/**
 * What the pane keeps in the browser's storage, on the hosts that store differently (test/host/profiles.ts,
 * docs/hosts.md): settings under Office.context.partitionKey where the host partitions storage (Excel on the
 * web), and a remembered secret that WebKit (Excel on Mac) cannot keep reported at sign-in, not lost silently.
 */
import "fake-indexeddb/auto";
import { createStore } from "idb-keyval";
import { HOST_PROFILES } from "../host/profiles";
import { breakCryptoKeyStorage } from "../host/standin/webView";
import { partitioned } from "../../src/taskpane/partitionedStorage";
import { SecretVault } from "../../src/taskpane/secretVault";
import { MemoryStorage, SettingsStore } from "../../src/taskpane/settingsStore";

const SETTINGS = {
  serviceUrl: "http://127.0.0.1:4010",
  tokenUrl: "http://127.0.0.1:4010/oauth/token",
  clientId: "demo-pro",
  method: "client" as const,
  postingTime: "07:00",
};

describe("settings in localStorage", () => {
  it("go under the partition key where Excel on the web gives one", () => {
    const key = HOST_PROFILES.web.partitionKey as string;
    const storage = new MemoryStorage();
    new SettingsStore(partitioned(storage, key)).save(SETTINGS);
    expect(storage.entries().length).toBeGreaterThan(0);
    for (const entry of storage.entries()) expect(entry.startsWith(key)).toBe(true);
    expect(new SettingsStore(partitioned(storage, key)).load()).toMatchObject({ clientId: "demo-pro" });
  });

  it("stay as they are where the host has no partition key (Windows and Mac web views)", () => {
    const storage = new MemoryStorage();
    new SettingsStore(partitioned(storage, HOST_PROFILES["m365-windows"].partitionKey)).save(SETTINGS);
    expect(storage.entries().some((entry) => entry.startsWith("rent-market."))).toBe(true);
  });
});

describe("a remembered secret", () => {
  const credentials = { kind: "client" as const, clientId: "demo-pro", clientSecret: "sandbox-secret-pro" };

  it("is kept and recalled where IndexedDB keeps the key (Windows, the web)", async () => {
    const vault = new SecretVault(createStore("vault-ok", "secrets"));
    await vault.keep(credentials);
    await expect(vault.recall()).resolves.toEqual(credentials);
  });

  it("fails at sign-in with a clear reason where WebKit cannot keep the key (Mac)", async () => {
    const put = IDBObjectStore.prototype.put;
    breakCryptoKeyStorage(IDBObjectStore);
    try {
      const vault = new SecretVault(createStore("vault-webkit", "secrets"));
      await expect(vault.keep(credentials)).rejects.toThrow(/cannot remember the secret/);
      await expect(vault.recall()).resolves.toBeUndefined();
    } finally {
      IDBObjectStore.prototype.put = put;
    }
  });
});
