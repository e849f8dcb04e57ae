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
 */
export default class WorkerEnvironment extends TestEnvironment {
  private readonly unit: boolean;
  private restore: (() => void) | undefined;

  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    this.unit = config.projectConfig.testEnvironmentOptions.unit === true;
    // Set before the file runs, so jest keeps them when it clears the file's globals at teardown.
    Object.assign(this.global, {
      sandboxDatasets: workerDatasets,
      sandboxContracts: workerContracts,
      workerResources,
    });
  }

  override async setup(): Promise<void> {
    await super.setup();
    if (this.unit) this.restore = forbidServersAndPrograms();
  }

  override async teardown(): Promise<void> {
    this.restore?.();
    await super.teardown();
  }
}

const UNIT_RULE =
  "is a unit test (jest project 'unit'), and unit tests start no server, browser or other program. " +
  "Name the file *.sandbox.test.ts, or put it under a folder of another project (see jest.config.js).";

/** Makes listening and starting programs (other than node itself) throw; returns what undoes it. */
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
  const guarded = <F extends (...args: never[]) => unknown>(
    run: F,
    programOf: (args: unknown[]) => unknown,
  ) =>
    ((...args: unknown[]) => {
      const program = programOf(args);
      if (program !== process.execPath)
        throw new Error(`This test starts the program ${String(program)}: it ${UNIT_RULE}`);
      return Reflect.apply(run, childProcess, args) as unknown;
    }) as unknown as F;
  const first = (args: unknown[]) => args[0];
  Object.assign(childProcess, {
    spawn: guarded(originals.spawn, first),
    spawnSync: guarded(originals.spawnSync, first),
    execFile: guarded(originals.execFile, first),
    execFileSync: guarded(originals.execFileSync, first),
    // A shell command line is some other program, whatever it names.
    exec: guarded(originals.exec, () => "a shell"),
    execSync: guarded(originals.execSync, () => "a shell"),
    fork: guarded(originals.fork, () => process.execPath),
  });
  return () => {
    net.Server.prototype.listen = listen;
    Object.assign(childProcess, originals);
  };
}
