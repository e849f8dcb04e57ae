/**
 * A database an earlier version kept (percents then stored in points) is removed from the person's computer
 * when a sign-in opens the default one; a test's or another named database is left alone.
 */
import "fake-indexeddb/auto";
import type { ServiceClient } from "../../src/api/client";
import { DataLayer, RETIRED_DATABASE_NAMES } from "../../src/data/dataLayer";

async function databaseNames(): Promise<string[]> {
  return (await indexedDB.databases()).map((database) => database.name ?? "").sort();
}

/** A database as an earlier version left it: one answer stored, and closed (that version is not running). */
function leftBehind(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(name);
    opening.onupgradeneeded = () => opening.result.createObjectStore("entries");
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const database = opening.result;
      const writing = database.transaction("entries", "readwrite");
      writing.objectStore("entries").put({ asking_rent: 91.87 }, "key");
      writing.oncomplete = () => {
        database.close();
        resolve();
      };
    };
  });
}

/** Deletions are queued by IndexedDB: a read-write on the default database after them sees them done. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

test("opening the default cache removes the retired databases, and only those", async () => {
  for (const name of [...RETIRED_DATABASE_NAMES, "someone-elses"]) await leftBehind(name);
  expect(await databaseNames()).toEqual([...RETIRED_DATABASE_NAMES, "someone-elses"].sort());

  // The constructor sends nothing: the client is never called here.
  const client = { onAnnouncedLimit: () => undefined } as unknown as ServiceClient;
  new DataLayer({ client, caller: "tester", databaseName: "a-test-database" });
  await settled();
  expect(await databaseNames()).toEqual(expect.arrayContaining([...RETIRED_DATABASE_NAMES]));

  new DataLayer({ client, caller: "tester" });
  await settled();
  const left = await databaseNames();
  for (const retired of RETIRED_DATABASE_NAMES) expect(left).not.toContain(retired);
  expect(left).toContain("someone-elses");
});
