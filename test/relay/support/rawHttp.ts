import { connect, type Socket } from "node:net";

/** A client that writes an HTTP/1.1 request byte by byte as the test says, and keeps every byte answered. */
export class RawClient {
  readonly socket: Socket;
  private received = "";
  private closed = false;
  private readonly waiters: (() => void)[] = [];

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on("data", (chunk: Buffer) => {
      this.received += chunk.toString("latin1");
      this.wake();
    });
    // A server that closes while the test still writes answers EPIPE/ECONNRESET: what came before counts.
    socket.on("error", () => undefined);
    socket.on("close", () => {
      this.closed = true;
      this.wake();
    });
  }

  static open(origin: string): Promise<RawClient> {
    const url = new URL(origin);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => resolve(new RawClient(socket)));
      socket.once("error", reject);
    });
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  get text(): string {
    return this.received;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  write(text: string): void {
    if (!this.closed && !this.socket.destroyed) this.socket.write(text);
  }

  /**
   * Waits until `done` holds for what was received, or the socket closed, or `boundMs` passed (a bound so a
   * server that never answers fails the test instead of hanging it). Answers whether `done` held.
   */
  async until(done: (text: string) => boolean, boundMs: number): Promise<boolean> {
    const deadline = Date.now() + boundMs;
    while (!done(this.received) && !this.closed && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return done(this.received);
  }

  close(): void {
    this.socket.destroy();
  }
}

/** The status codes of every response head in `text`, interim ones (100) included, in order. */
export function statusCodes(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
}
