import type { KeyValueStorage } from "./settingsStore";

/**
 * Office asks add-ins to keep private data in localStorage under `Office.context.partitionKey`: where the host
 * partitions storage (Excel on the web) the key names this add-in's partition, so another context of the same
 * origin cannot read it. Where the host does not partition (the web views of Windows and Mac) the key is
 * undefined and the storage is used as it is.
 */
export function partitionKey(): string | undefined {
  if (typeof Office === "undefined") return undefined;
  try {
    const key: unknown = Office.context.partitionKey;
    return typeof key === "string" && key !== "" ? key : undefined;
  } catch {
    return undefined;
  }
}

/** The storage with every key prefixed by the partition key, when there is one. */
export function partitioned(
  storage: KeyValueStorage,
  key: string | undefined = partitionKey(),
): KeyValueStorage {
  if (key === undefined) return storage;
  const inPartition = (name: string) => `${key}${name}`;
  return {
    getItem: (name) => storage.getItem(inPartition(name)),
    setItem: (name, value) => storage.setItem(inPartition(name), value),
    removeItem: (name) => storage.removeItem(inPartition(name)),
  };
}
