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

/** Debian's redis-server (installed by the test setup when missing) on a free loopback port, nothing saved. */
export async function startRedis(): Promise<RunningRedis> {
  const command = ensureSystemTools([REDIS_SERVER]).get(REDIS_SERVER.command) as string;
  const port = await freePort();
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
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (!hasExited(child)) child.kill("SIGKILL");
      await exited(child);
    },
  };
}
