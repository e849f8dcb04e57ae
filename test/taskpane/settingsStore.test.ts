import { MemoryStorage, SettingsStore } from "../../src/taskpane/settingsStore";

const SERVICE = "http://127.0.0.1:4010";

describe("the account a sign-in chose last", () => {
  it("is none until one is chosen, then that one, for that identity at that service only", () => {
    const settings = new SettingsStore(new MemoryStorage());
    expect(settings.rememberedAccount(SERVICE, "demo-pro")).toBeUndefined();
    settings.rememberAccount(SERVICE, "demo-pro", 100);
    expect(settings.rememberedAccount(SERVICE, "demo-pro")).toBe(100);
    expect(settings.rememberedAccount(SERVICE, "demo-proplus")).toBeUndefined();
    expect(settings.rememberedAccount("http://127.0.0.1:4011", "demo-pro")).toBeUndefined();
  });

  it("is none when what the storage holds is no account id", () => {
    const storage = new MemoryStorage();
    const settings = new SettingsStore(storage);
    settings.rememberAccount(SERVICE, "demo-pro", 100);
    // The one entry is "key=100": the key is what comes before the value.
    const [entry = ""] = storage.entries();
    const key = entry.slice(0, entry.lastIndexOf("="));
    for (const held of ["", "0", "-3", "2.5", "abc"]) {
      storage.setItem(key, held);
      expect(settings.rememberedAccount(SERVICE, "demo-pro")).toBeUndefined();
    }
  });
});
