/**
 * Everything this runtime keeps in IndexedDB, as text to search: every database, every store, every key and
 * value. Binary values become latin1 text, so a secret stored as plain bytes is found too.
 */
function asText(value: unknown): string {
  return (
    JSON.stringify(value, (_, member: unknown) => {
      if (member instanceof ArrayBuffer) return Buffer.from(member).toString("latin1");
      if (ArrayBuffer.isView(member))
        return Buffer.from(member.buffer, member.byteOffset, member.byteLength).toString("latin1");
      if (member instanceof Map) return [...member.entries()];
      if (member instanceof Set) return [...member.values()];
      if (
        member !== null &&
        typeof member === "object" &&
        Object.getPrototypeOf(member) !== Object.prototype
      ) {
        return Array.isArray(member) ? member : { type: String(member), ...member };
      }
      return member;
    }) ?? String(value)
  );
}

function request<T>(operation: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    operation.onsuccess = () => resolve(operation.result);
    operation.onerror = () => reject(operation.error);
  });
}

/** One text per stored record: `<database>/<store> <key> <value>`. */
export async function dumpIndexedDb(): Promise<string[]> {
  const records: string[] = [];
  for (const { name } of await indexedDB.databases()) {
    if (!name) continue;
    const database = await request(indexedDB.open(name));
    try {
      for (const storeName of Array.from(database.objectStoreNames)) {
        const store = database.transaction(storeName, "readonly").objectStore(storeName);
        const [keys, values] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
        keys.forEach((key, index) => {
          records.push(`${name}/${storeName} ${asText(key)} ${asText(values[index])}`);
        });
      }
    } finally {
      database.close();
    }
  }
  return records;
}
