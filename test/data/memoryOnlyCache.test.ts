/** No fake-indexeddb here: this runtime has no IndexedDB, as in some webviews and in plain Node. */
import { requestKey } from "../../src/data/cacheKey";
import { openPersistentStore } from "../../src/data/persistentStore";
import { ResponseCache } from "../../src/data/responseCache";

describe("ResponseCache without IndexedDB", () => {
  it("works from memory only, without errors", async () => {
    expect(typeof indexedDB).toBe("undefined");
    const store = openPersistentStore("rent-market-cache");
    expect(store).toBeUndefined();
    const cache = new ResponseCache({ store });
    const key = requestKey({
      kind: "narrative",
      caller: "demo-base",
      accountId: 1,
      endpoint: "/n",
      params: {},
    });
    await cache.setMany([{ key, value: { text: "Rents rose." } }]);
    expect((await cache.get(key))?.value).toEqual({ text: "Rents rose." });
    const stats = await cache.stats();
    expect(stats).toMatchObject({ persistent: false, entries: 1, storageFailures: 0 });
    await cache.clear("narrative");
    expect(await cache.get(key)).toBeUndefined();
  });
});
