/** What `npm start` leaves running, recorded so that `npm stop` can end exactly that. */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

export const RUN_DIR = path.resolve(__dirname, "../.run");
const PID_FILE = path.join(RUN_DIR, "processes.json");

export interface DevProcess {
  name: string;
  pid: number;
  log: string;
}

export function readProcesses(): DevProcess[] {
  if (!existsSync(PID_FILE)) return [];
  return JSON.parse(readFileSync(PID_FILE, "utf8")) as DevProcess[];
}

export function writeProcesses(processes: DevProcess[]): void {
  mkdirSync(RUN_DIR, { recursive: true });
  writeFileSync(PID_FILE, JSON.stringify(processes, null, 2));
}

export function forgetProcesses(): void {
  rmSync(PID_FILE, { force: true });
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Ends a detached process group started by `npm start` (the npm/tsx/webpack children with it). */
export function stopProcess(entry: DevProcess): boolean {
  if (!isRunning(entry.pid)) return false;
  try {
    process.kill(process.platform === "win32" ? entry.pid : -entry.pid, "SIGTERM");
  } catch {
    process.kill(entry.pid, "SIGTERM");
  }
  return true;
}
