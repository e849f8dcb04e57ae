import {
  REDIS_SERVER,
  ensureSystemTools,
  MissingToolError,
  type Machine,
  type SystemTool,
} from "./systemTools";

/** A tool whose command and package share a name, as Debian's chromium does. */
const CHROMIUM: SystemTool = { command: "chromium", aptPackage: "chromium" };

/** A machine whose PATH holds `present`; apt-get "installs" by adding packages' commands to it. */
function fakeMachine(present: string[], access: "root" | "sudo" | "none", installsAllowed = true) {
  const onPath = new Set(present);
  const ran: string[] = [];
  const machine: Machine = {
    which: (command) => (onPath.has(command) ? `/usr/bin/${command}` : undefined),
    aptAccess: () => access,
    run(program, args) {
      ran.push([program, ...args].join(" "));
      const install = args.indexOf("install");
      if (install >= 0)
        for (const name of args.slice(install + 1).filter((a) => !a.startsWith("-"))) onPath.add(name);
    },
    installsAllowed,
    log: () => undefined,
  };
  return { machine, ran };
}

describe("the test setup's system tools", () => {
  it("installs nothing when every tool is on PATH", () => {
    const { machine, ran } = fakeMachine(["apt-get", "chromium", "redis-server"], "root");
    const paths = ensureSystemTools([CHROMIUM, REDIS_SERVER], machine);
    expect(ran).toEqual([]);
    expect(paths.get("chromium")).toBe("/usr/bin/chromium");
  });

  it("as root installs the missing ones with one apt-get update and one install", () => {
    const { machine, ran } = fakeMachine(["apt-get"], "root");
    const paths = ensureSystemTools([CHROMIUM, REDIS_SERVER], machine);
    expect(ran).toEqual([
      "apt-get -o DPkg::Lock::Timeout=300 update -qq",
      "apt-get -o DPkg::Lock::Timeout=300 install -y -qq chromium redis-server",
    ]);
    expect(paths.get("redis-server")).toBe("/usr/bin/redis-server");
  });

  it("uses sudo without a password when this user has it, and installs only what is missing", () => {
    const { machine, ran } = fakeMachine(["apt-get", "redis-server"], "sudo");
    ensureSystemTools([CHROMIUM, REDIS_SERVER], machine);
    expect(ran).toEqual([
      "sudo -n apt-get -o DPkg::Lock::Timeout=300 update -qq",
      "sudo -n apt-get -o DPkg::Lock::Timeout=300 install -y -qq chromium",
    ]);
  });

  it("without the right to install, stops with one line that says what to run", () => {
    const { machine, ran } = fakeMachine(["apt-get"], "none");
    expect(() => ensureSystemTools([CHROMIUM], machine)).toThrow(
      new MissingToolError(
        "The tests need chromium; install it with: sudo apt-get update && sudo apt-get install -y chromium",
      ),
    );
    expect(ran).toEqual([]);
  });

  it("honours RENT_TESTS_NO_INSTALL=1 even as root", () => {
    const { machine, ran } = fakeMachine(["apt-get"], "root", false);
    expect(() => ensureSystemTools([REDIS_SERVER], machine)).toThrow(
      /install it with: .*apt-get install -y redis-server/,
    );
    expect(ran).toEqual([]);
  });

  it("says so when apt-get ran but the command is still missing", () => {
    const { machine } = fakeMachine(["apt-get"], "root");
    const renamed = { command: "chromium", aptPackage: "chromium-browser" };
    expect(() => ensureSystemTools([renamed], machine)).toThrow(
      /still missing after apt-get install chromium-browser/,
    );
  });
});
