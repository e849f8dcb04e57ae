import childProcess from "node:child_process";
import net from "node:net";
import vm from "node:vm";
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
    // Faster global lookups in the file's modules (see withOrdinaryGlobal).
    super(withOrdinaryGlobal(config), context);
    restoreCreateContext();
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

/**
 * The test file's global as an ordinary global object, not a contextified one.
 *
 * jest-environment-node makes the global with `vm.createContext(proxy)`. V8 then serves every global lookup in a
 * test file's modules (`Math`, `JSON`, `Map`, `Date`, ...) through an interceptor that asks the proxy first, which
 * costs about thirty times a plain lookup: the sandbox built its 20,000 properties in 1.0 s under jest against
 * 0.2 s in plain Node. Node 22.8's `vm.constants.DONT_CONTEXTIFY` makes a context whose global is ordinary.
 *
 * The environment's constructor calls `vm.createContext` once, so the patch serves that one call and puts the
 * function back (and the constructor puts it back again, in case the call never came). What the ordinary global
 * gives up is jest's clean-up of properties set on the global (its proxy saw them set); the context is dropped
 * with the file, and them with it. On a Node without the constant jest's own context is kept.
 */
const createContext = vm.createContext;
/** Undefined before Node 22.8, whatever the types say. */
const DONT_CONTEXTIFY = vm.constants.DONT_CONTEXTIFY as typeof vm.constants.DONT_CONTEXTIFY | undefined;

let patchServed = false;

function withOrdinaryGlobal<T>(passedOn: T): T {
  const ordinary = DONT_CONTEXTIFY;
  patchServed = ordinary === undefined;
  if (ordinary !== undefined)
    (vm as { createContext: unknown }).createContext = () => {
      patchServed = true;
      restoreCreateContext();
      return createContext(ordinary);
    };
  return passedOn;
}

/** Puts vm.createContext back; says so if jest made its global some other way (a jest that changed). */
function restoreCreateContext(): void {
  (vm as { createContext: unknown }).createContext = createContext;
  if (!patchServed)
    throw new Error(
      "jest-environment-node no longer makes its global with vm.createContext: workerEnvironment.ts's " +
        "withOrdinaryGlobal must follow it, or every global lookup in a test file costs thirty times more.",
    );
}
