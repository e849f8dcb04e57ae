import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";

const ROOT = path.resolve(__dirname, "../..");

export interface SandboxProcess {
  url: string;
  child: ChildProcess;
  /** Set when the process has exited (by itself or by `stop`): its exit code, or the signal. */
  exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Everything it wrote to stderr (a crash reason, for example). */
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * `tsx sandbox/main.ts` in its own process (on a free port unless `args` name one), for tests and
 * benchmarks that need its memory apart from theirs or limit it with `nodeArgs`.
 */
export async function startSandboxProcess(args: string[], nodeArgs: string[] = []): Promise<SandboxProcess> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, "--import", "tsx", "sandbox/main.ts", "--port", "0", ...args],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) =>
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      resolve();
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const reader = createInterface({ input: child.stdout! });
    reader.on("line", (line) => {
      const listening = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line)?.[1];
      if (listening) resolve(listening);
    });
    void exited.then(() => reject(new Error(`the sandbox exited before listening: ${stderr}`)));
  });
  return {
    url,
    child,
    exit: () => exit,
    stderr: () => stderr,
    stop: async () => {
      if (!exit) child.kill("SIGTERM");
      await exited;
    },
  };
}
