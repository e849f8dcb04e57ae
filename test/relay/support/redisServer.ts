import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { REDIS_SERVER, ensureSystemTools } from "../../support/systemTools";

export interface RunningRedis {
  url: string;
  stop(): Promise<void>;
  /** A fresh, empty redis-server on the same port after `stop` (Redis came back, its data lost). */
  restart(): Promise<void>;
}

/** A port free a moment ago on 127.0.0.1 (another program may take it before it is used). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

function exited(child: ChildProcess): Promise<void> {
  return hasExited(child) ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()));
}

/** The port is chosen before redis-server binds it, so another program may take it first: then another. */
const BIND_ATTEMPTS = 10;

/** redis-server on `port`, or undefined when the port was taken before it could bind it. */
async function startOn(
  command: string,
  port: number,
  extraArgs: string[],
): Promise<ChildProcess | undefined> {
  const child = spawn(
    command,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...extraArgs],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Promise<ChildProcess | undefined>((resolve, reject) => {
    let output = "";
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) resolve(child);
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    // "close", not "exit": the process can end before its last output ("Address already in use") is read.
    child.once("close", (code) => {
      if (/address already in use/i.test(output)) resolve(undefined);
      else reject(new Error(`redis-server exited (${code}): ${output}`));
    });
  });
}

/**
 * Debian's redis-server (installed by the test setup when missing) on a free loopback port, nothing saved.
 * `password` sets `requirepass`; the URL then carries it. `choosePort` replaces the pick of a free port.
 */
export async function startRedis(
  options: { password?: string; choosePort?: () => Promise<number> } = {},
): Promise<RunningRedis> {
  const command = ensureSystemTools([REDIS_SERVER]).get(REDIS_SERVER.command) as string;
  const extraArgs = options.password ? ["--requirepass", options.password] : [];
  for (let attempt = 1; ; attempt++) {
    const port = await (options.choosePort ?? freePort)();
    const child = await startOn(command, port, extraArgs);
    if (!child) {
      if (attempt < BIND_ATTEMPTS) continue;
      throw new Error(`redis-server found no free port in ${BIND_ATTEMPTS} attempts`);
    }
    const auth = options.password ? `:${encodeURIComponent(options.password)}@` : "";
    let running = child;
    return {
      url: `redis://${auth}127.0.0.1:${port}`,
      stop: async () => {
        if (!hasExited(running)) running.kill("SIGKILL");
        await exited(running);
      },
      restart: async () => {
        const again = await startOn(command, port, extraArgs);
        if (!again) throw new Error(`port ${port} was taken while redis-server was down`);
        running = again;
      },
    };
  }
}
