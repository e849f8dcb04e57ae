import { execFileSync, spawnSync } from "node:child_process";

/**
 * Programs the tests run that npm cannot install: Debian packages. `npm test` must pass on a fresh
 * machine by itself, so the test setup finds each one and, when it is missing and this user may use
 * apt-get (root, or sudo without a password), installs it; otherwise it stops with one line that says
 * what to run.
 */
export interface SystemTool {
  /** The command the tests run, looked up on PATH. */
  command: string;
  /** The Debian package that provides it. */
  aptPackage: string;
}

/** How long apt-get waits for another apt or dpkg to let go of its lock. */
const APT_LOCK_WAIT_SECONDS = 300;

/**
 * Chromium's headless shell: the same Blink and V8 as Debian's chromium, without the browser's own windows.
 * The full browser in headless mode also starts, for every page, a renderer for its own omnibox pop-up
 * (chrome://omnibox-popup.top-chrome), which cost more CPU than the preview page itself; the tests never
 * show a browser window, so they use the shell (as Playwright does for headless Chromium).
 */
export const CHROMIUM: SystemTool = {
  command: "chromium-headless-shell",
  aptPackage: "chromium-headless-shell",
};
export const REDIS_SERVER: SystemTool = { command: "redis-server", aptPackage: "redis-server" };

/** What the setup needs from the machine; the tests of the setup itself replace it. */
export interface Machine {
  /** Absolute path of a command on PATH, or undefined. */
  which(command: string): string | undefined;
  /** How this user may run apt-get: directly (root), through `sudo -n`, or not at all. */
  aptAccess(): "root" | "sudo" | "none";
  /** Runs a command to completion, its output shown to the person running the tests; throws when it fails. */
  run(command: string, args: string[]): void;
  /** Opt-out: the person asked the tests not to install anything. */
  installsAllowed: boolean;
  log(line: string): void;
}

export class MissingToolError extends Error {}

/** Paths of the tools, installing the missing ones with one apt-get update and one install. */
export function ensureSystemTools(
  tools: SystemTool[],
  machine: Machine = thisMachine(),
): Map<string, string> {
  const missing = tools.filter((tool) => machine.which(tool.command) === undefined);
  if (missing.length > 0) installWithApt(missing, machine);
  const found = new Map<string, string>();
  for (const tool of tools) {
    const path = machine.which(tool.command);
    if (path === undefined) {
      throw new MissingToolError(
        `${tool.command} is still missing after apt-get install ${tool.aptPackage}.`,
      );
    }
    found.set(tool.command, path);
  }
  return found;
}

function installWithApt(missing: SystemTool[], machine: Machine): void {
  const packages = missing.map((tool) => tool.aptPackage);
  const instruction = `sudo apt-get update && sudo apt-get install -y ${packages.join(" ")}`;
  const access = machine.which("apt-get") === undefined ? "none" : machine.aptAccess();
  if (!machine.installsAllowed || access === "none") {
    const commands = missing.map((tool) => tool.command).join(" and ");
    throw new MissingToolError(`The tests need ${commands}; install it with: ${instruction}`);
  }
  // With sudo, the program is sudo and apt-get becomes its first argument.
  const [program, prefix] = access === "sudo" ? ["sudo", ["-n", "apt-get"]] : ["apt-get", []];
  machine.log(`Installing ${packages.join(", ")} from apt (needed by the tests)...`);
  // A fresh machine may be running its own apt (unattended upgrades at boot): wait for its lock, not fail.
  const waitForLock = ["-o", `DPkg::Lock::Timeout=${APT_LOCK_WAIT_SECONDS}`];
  machine.run(program, [...prefix, ...waitForLock, "update", "-qq"]);
  machine.run(program, [...prefix, ...waitForLock, "install", "-y", "-qq", ...packages]);
}

/** This machine, through the shell. */
export function thisMachine(): Machine {
  return {
    which(command) {
      const found = spawnSync("sh", ["-c", `command -v ${command}`], { encoding: "utf8" });
      const path = found.stdout.trim();
      return found.status === 0 && path.startsWith("/") ? path : undefined;
    },
    aptAccess() {
      if (process.getuid?.() === 0) return "root";
      return spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0 ? "sudo" : "none";
    },
    run(program, args) {
      execFileSync(program, args, {
        stdio: ["ignore", "inherit", "inherit"],
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      });
    },
    installsAllowed: process.env.RENT_TESTS_NO_INSTALL !== "1",
    log: (line) => process.stderr.write(`${line}\n`),
  };
}
