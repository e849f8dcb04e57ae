import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { REDIS_SERVER, ensureSystemTools } from "../../support/systemTools";

export interface RunningRedis {
  url: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
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

/** Another process took the port between our probe and redis-server's bind: try another. */
class PortTaken extends Error {}
const PORT_ATTEMPTS = 5;

/**
 * Debian's redis-server (installed by the test setup when missing) on a free loopback port, nothing saved.
 * The port is probed free and then handed to redis-server, so another process can take it in between; when
 * redis-server says the address is in use, it starts again on another port.
 */
export async function startRedis(pickPort: () => Promise<number> = freePort): Promise<RunningRedis> {
  const command = ensureSystemTools([REDIS_SERVER]).get(REDIS_SERVER.command) as string;
  for (let attempt = 1; ; attempt++) {
    try {
      return await startRedisOn(command, await pickPort());
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

async function startRedisOn(command: string, port: number): Promise<RunningRedis> {
  const child = spawn(
    command,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) resolve();
    });
    child.once("exit", (code) => {
      const message = `redis-server exited (${code}): ${output}`;
      reject(/Address already in use/.test(output) ? new PortTaken(message) : new Error(message));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (!hasExited(child)) child.kill("SIGKILL");
      await exited(child);
    },
  };
}
