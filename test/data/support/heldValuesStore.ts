import { IndexedDbStore } from "../../../src/data/persistentStore";

/** IndexedDB whose bulk read of values, once done, is held back until the test releases it. */
export class HeldValuesStore extends IndexedDbStore {
  private markRead: () => void = () => undefined;
  /** Settles when the values have been read (and are being held). */
  readonly read = new Promise<void>((resolve) => (this.markRead = resolve));
  release: () => void = () => undefined;
  private readonly held = new Promise<void>((resolve) => (this.release = resolve));

  override async allValues(): Promise<Map<string, unknown>> {
    const values = await super.allValues();
    this.markRead();
    await this.held;
    return values;
  }
}
