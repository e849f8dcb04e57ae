import childProcess from "node:child_process";
import net from "node:net";
import type { EnvironmentContext, JestEnvironmentConfig } from "@jest/environment";
import { TestEnvironment } from "jest-environment-node";
import { workerContracts, workerDatasets, workerResources } from "./workerScope";

/**
 * Node's test environment, plus what a jest worker shares between its test files (./workerScope.ts): the
 * sandbox's datasets, its parsed contract and long-lived resources such as a browser.
 *
 * With `testEnvironmentOptions.unit: true` (the unit project) it also holds the unit tests to their rule: a
 * test file that starts a server or another program (a browser, apt-get, redis-server) fails at once, naming
 * where such a test belongs, instead of quietly slowing the fast loop down.
 *
 * In every project, a file that ends with a timer still running (an interval, or a timeout of a second or more)
 * fails, naming where the timer started: something it began outlived it (see LeftTimers).
 */
export default class WorkerEnvironment extends TestEnvironment {
  private readonly unit: boolean;
  private restore: (() => void) | undefined;
  private readonly timers = new LeftTimers();

  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    this.unit = config.projectConfig.testEnvironmentOptions.unit === true;
    // Set before the file runs, so jest keeps them when it clears the file's globals at teardown.
    Object.assign(this.global, {
      sandboxDatasets: workerDatasets,
      sandboxContracts: workerContracts,
      workerResources,
    });
    this.timers.watch(this.global);
  }

  override async setup(): Promise<void> {
    await super.setup();
    if (this.unit) this.restore = forbidServersAndPrograms();
  }

  override async teardown(): Promise<void> {
    this.restore?.();
    const left = this.timers.stopLeft();
    await super.teardown();
    if (left.length > 0)
      throw new Error(
        `This test file left ${left.length} timer(s) running, which would keep the jest worker alive after its ` +
          `last file (jest then waits its workerGracefulExitTimeout): end what started them (sign out, close, ` +
          `abort). Started at:\n${left.join("\n\n")}`,
      );
  }
}

/** A timer this long or longer, still due when its file ends, is reported; shorter ones end on their own. */
const LONG_TIMER_MS = 1_000;

/**
 * The timers a test file starts that would outlive it: every interval, and timeouts of LONG_TIMER_MS or more,
 * with where each was started. Timers that are unref'd keep nothing alive and are not reported.
 */
class LeftTimers {
  /** Each timer with what it was and an error made where it started (its stack is read only if it is left). */
  private readonly started = new Map<NodeJS.Timeout, { what: string; where: Error }>();

  watch(global: Pick<typeof globalThis, "setTimeout" | "setInterval">): void {
    const { setTimeout: timeout, setInterval: interval } = global;
    const note = (timer: NodeJS.Timeout, kind: string, ms: unknown) =>
      this.started.set(timer, { what: `${kind} of ${String(ms)} ms`, where: new Error() });
    global.setTimeout = Object.assign(
      (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
        const timer = timeout(callback, ms, ...args);
        if (typeof ms === "number" && ms >= LONG_TIMER_MS) note(timer, "setTimeout", ms);
        return timer;
      },
      timeout,
    ) as typeof setTimeout;
    global.setInterval = Object.assign(
      (callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
        const timer = interval(callback, ms, ...args);
        note(timer, "setInterval", ms);
        return timer;
      },
      interval,
    ) as typeof setInterval;
  }

  /** Clears the timers still due and keeping the process alive, and says where each was started. */
  stopLeft(): string[] {
    const left = [...this.started].filter(
      ([timer]) => !(timer as unknown as { _destroyed: boolean })._destroyed && timer.hasRef(),
    );
    for (const [timer] of left) clearTimeout(timer);
    this.started.clear();
    return left.map(
      ([, { what, where }]) => `${what}\n${(where.stack ?? "").split("\n").slice(3, 9).join("\n")}`,
    );
  }
}

const UNIT_RULE =
  "was read as a unit test (jest project 'unit'), and unit tests start no server, browser or process. " +
  "test/support/testWeight.js missed what starts it: teach it the call (its MARKERS), or reach the sandbox " +
  "in process (test/support/inProcessSandbox.ts).";

/** Makes listening and starting programs throw; returns what undoes it. */
function forbidServersAndPrograms(): () => void {
  const listen = net.Server.prototype.listen;
  net.Server.prototype.listen = function refused(): never {
    throw new Error(`This test listens on a port: it ${UNIT_RULE}`);
  };
  const originals = {
    spawn: childProcess.spawn,
    spawnSync: childProcess.spawnSync,
    execFile: childProcess.execFile,
    execFileSync: childProcess.execFileSync,
    exec: childProcess.exec,
    execSync: childProcess.execSync,
    fork: childProcess.fork,
  };
  const refused =
    (programOf: (args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      throw new Error(`This test starts the program ${String(programOf(args))}: it ${UNIT_RULE}`);
    };
  const first = (args: unknown[]) => args[0];
  Object.assign(childProcess, {
    spawn: refused(first),
    spawnSync: refused(first),
    execFile: refused(first),
    execFileSync: refused(first),
    // A shell command line is some other program, whatever it names.
    exec: refused(() => "a shell"),
    execSync: refused(() => "a shell"),
    fork: refused(() => "node"),
  });
  return () => {
    net.Server.prototype.listen = listen;
    Object.assign(childProcess, originals);
  };
}
