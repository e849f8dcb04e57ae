/**
 * relay/Dockerfile and relay/compose.yaml, checked without a Docker engine: the properties the people who run
 * the relay rely on (a slim image, not root, a health check that asks /healthz, Redis and two relays), and
 * the image's layout rebuilt in a directory and started as its ENTRYPOINT would start it.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import type { RunningSandbox } from "../../sandbox/server";
import { RELAY_CLIENT, startTestSandbox } from "./support/relayHarness";
import { freePort } from "./support/redisServer";

const ROOT = path.resolve(__dirname, "../..");
const DOCKERFILE = readFileSync(path.join(ROOT, "relay/Dockerfile"), "utf8");

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions, continuation lines joined and comments dropped, split into stages. */
function stages(text: string): Instruction[][] {
  const logical: string[] = [];
  let pending = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (pending === "" && (line === "" || line.startsWith("#"))) continue;
    if (line.startsWith("#")) continue;
    if (line.endsWith("\\")) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    logical.push(pending + line);
    pending = "";
  }
  const result: Instruction[][] = [[]];
  for (const line of logical) {
    const [keyword, ...rest] = line.split(/\s+/);
    const instruction = { keyword: (keyword as string).toUpperCase(), args: rest.join(" ") };
    if (instruction.keyword === "FROM") result.push([]);
    (result[result.length - 1] as Instruction[]).push(instruction);
  }
  return result;
}

const all = stages(DOCKERFILE);
const globalArgs = Object.fromEntries(
  (all[0] as Instruction[])
    .filter((instruction) => instruction.keyword === "ARG")
    .map((instruction) => instruction.args.split("=") as [string, string]),
);
const final = all[all.length - 1] as Instruction[];
const build = all.find((stage) => stage.some((i) => i.keyword === "RUN" && i.args.includes("esbuild"))) ?? [];
const the = (stage: Instruction[], keyword: string) => stage.filter((i) => i.keyword === keyword);
const jsonArgs = (instruction: Instruction | undefined) =>
  JSON.parse(instruction?.args ?? "null") as string[];

test("the image runs a slim Node (which line: containerHardening.test.ts)", () => {
  const from = (the(final, "FROM")[0] as Instruction).args.split(/\s+/)[0] as string;
  const image = from.replace(/^\$\{(\w+)\}$/, (_, name: string) => globalArgs[name] ?? "");
  expect(image).toMatch(/^node:\d+(\.\d+)*-([a-z]+-)?slim$/);
});

test("the relay runs as a user other than root, set before it starts", () => {
  const users = the(final, "USER");
  expect(users.length).toBeGreaterThan(0);
  const user = (users[users.length - 1] as Instruction).args;
  expect(user).not.toMatch(/^(root|0)(:|$)/);
  const lastUserAt = final.lastIndexOf(users[users.length - 1] as Instruction);
  expect(final.findIndex((i) => i.keyword === "ENTRYPOINT")).toBeGreaterThan(lastUserAt);
});

/** The value of each ENV of a stage (`ENV A=1 B=2` and `ENV A 1`). */
const environmentOf = (stage: Instruction[]) =>
  Object.fromEntries(
    the(stage, "ENV").flatMap((i) =>
      i.args.includes("=")
        ? i.args.split(/\s+/).map((pair) => pair.split("=") as [string, string])
        : [i.args.split(/\s+/) as [string, string]],
    ),
  );

test("the health check asks /healthz on the port the relay listens on, both read from RELAY_PORT", () => {
  const healthcheck = the(final, "HEALTHCHECK")[0] as Instruction;
  expect(healthcheck.args).toMatch(/--interval=\d+s/);
  const command = JSON.parse(healthcheck.args.slice(healthcheck.args.indexOf("CMD") + 3)) as string[];
  expect(command.join(" ")).toContain("http://127.0.0.1:${process.env.RELAY_PORT}/healthz");
  // The relay takes its port from RELAY_PORT too: no --port in CMD to differ from it.
  const cmd = jsonArgs(the(final, "CMD")[0]);
  expect(cmd).not.toContain("--port");
  expect(cmd[cmd.indexOf("--host") + 1]).toBe("0.0.0.0");
  const port = environmentOf(final).RELAY_PORT;
  expect(port).toMatch(/^\d+$/);
  expect(the(final, "EXPOSE").map((i) => i.args.replace("${RELAY_PORT}", port as string))).toContain(port);
});

test("no secret is baked into the image", () => {
  for (const instruction of [...the(final, "ENV"), ...all.flatMap((stage) => the(stage, "ARG"))])
    expect(instruction.args).not.toMatch(/SECRET|PASSWORD|TOKEN/i);
});

test("compose runs Redis and two relays of this image that share it, the secret as a file", () => {
  const compose = // Compose applies YAML merge keys (`<<: *relay`), as `merge` does here.
    parse(readFileSync(path.join(ROOT, "relay/compose.yaml"), "utf8"), { merge: true }) as {
      services: Record<string, Record<string, unknown>>;
      secrets: Record<string, { file: string }>;
    };
  const relays = Object.entries(compose.services).filter(
    ([, service]) =>
      (service.build as { dockerfile?: string } | undefined)?.dockerfile === "relay/Dockerfile",
  );
  expect(relays).toHaveLength(2);
  const redisName = Object.keys(compose.services).find((name) =>
    String(compose.services[name]?.image).startsWith("redis:"),
  ) as string;
  expect(redisName).toBeDefined();
  const hostPorts = new Set<string>();
  for (const [, relay] of relays) {
    expect((relay.build as { context: string }).context).toBe("..");
    const environment = relay.environment as Record<string, string>;
    expect(environment.RELAY_STORE).toBe(`redis://${redisName}:6379`);
    expect(Object.keys(environment).some((name) => name === "RELAY_CLIENT_SECRET")).toBe(false);
    expect(environment.RELAY_CLIENT_SECRET_FILE).toMatch(/^\/run\/secrets\//);
    expect((relay.depends_on as Record<string, { condition: string }>)[redisName]?.condition).toBe(
      "service_healthy",
    );
    for (const port of relay.ports as string[]) hostPorts.add(port.split(":").slice(0, -1).join(":"));
  }
  expect(hostPorts.size).toBe(2);
  expect(compose.services[redisName]?.healthcheck).toBeDefined();
});

/**
 * The image's node_modules: the repository's packages, with better-sqlite3 from RELAY_SQLITE_PACKAGE when
 * `npm run test:relay:lts` built it for another Node than the one that installed node_modules.
 */
function linkPackages(target: string): void {
  const copy = process.env.RELAY_SQLITE_PACKAGE;
  if (!copy) return symlinkSync(path.join(ROOT, "node_modules"), target);
  mkdirSync(target);
  for (const name of readdirSync(path.join(ROOT, "node_modules")))
    symlinkSync(
      name === "better-sqlite3" ? copy : path.join(ROOT, "node_modules", name),
      path.join(target, name),
    );
}

describe("the image's layout, rebuilt in a directory", () => {
  let directory: string;
  let relay: ChildProcess | undefined;
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), "relay-image-"));
    // The service the image's relay is pointed at, as compose points it at the live one.
    sandbox = await startTestSandbox();
  });

  afterAll(async () => {
    relay?.kill("SIGKILL");
    rmSync(directory, { recursive: true, force: true });
    await sandbox?.close();
  });

  test("the bundle the build stage makes starts from the ENTRYPOINT's path and passes the HEALTHCHECK", async () => {
    // The build stage's esbuild command, writing into the directory instead of /app.
    const bundleCommand = (the(build, "RUN").find((i) => i.args.includes("esbuild")) as Instruction).args
      .split("&&")[0]
      ?.trim()
      .split(/\s+/) as string[];
    const outfile = (bundleCommand.find((arg) => arg.startsWith("--outfile=")) as string).slice(10);
    const args = bundleCommand
      .slice(1)
      .map((arg) => (arg.startsWith("--outfile=") ? `--outfile=${path.join(directory, outfile)}` : arg));
    execFileSync(bundleCommand[0] as string, [...args, "--log-level=warning"], { cwd: ROOT });
    // The final stage's copies of files the relay reads at run time.
    for (const copy of the(final, "COPY")) {
      const [source, target] = copy.args
        .split(/\s+/)
        .filter((part) => !part.startsWith("--"))
        .slice(-2) as [string, string];
      if (source.endsWith("openapi.yaml")) {
        mkdirSync(path.dirname(path.join(directory, target)), { recursive: true });
        copyFileSync(path.join(ROOT, source.replace(/^\/app\//, "")), path.join(directory, target));
      }
    }
    linkPackages(path.join(directory, "node_modules"));
    mkdirSync(path.join(directory, "dist"));

    const [program, entry] = jsonArgs(the(final, "ENTRYPOINT")[0]) as [string, string];
    expect(entry).toBe(outfile);
    const options = ["--dist", "dist", "--service-url", sandbox.url];
    // The ports as the image sets them: in its environment, which the health check reads too.
    const ports = { RELAY_PORT: String(await freePort()), RELAY_OPS_PORT: String(await freePort()) };
    relay = spawn(program === "node" ? process.execPath : program, [entry, ...options], {
      cwd: directory,
      env: {
        ...process.env,
        ...ports,
        RELAY_STORE: path.join(directory, "relay.sqlite"),
        RELAY_CLIENT_ID: RELAY_CLIENT.clientId,
        RELAY_CLIENT_SECRET: RELAY_CLIENT.clientSecret,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const origin = await new Promise<string>((resolve, reject) => {
      let output = "";
      relay?.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const started = /relay: (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (started) resolve(started[1] as string);
      });
      relay?.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
      relay?.once("exit", (code) => reject(new Error(`the relay exited (${code}): ${output}`)));
    });

    const healthcheck = the(final, "HEALTHCHECK")[0] as Instruction;
    const [probeProgram, ...probeArgs] = JSON.parse(
      healthcheck.args.slice(healthcheck.args.indexOf("CMD") + 3),
    ) as string[];
    expect(origin).toBe(`http://127.0.0.1:${ports.RELAY_PORT}`);
    // execFileSync throws when the check exits other than 0.
    execFileSync(probeProgram === "node" ? process.execPath : (probeProgram as string), probeArgs, {
      env: { ...process.env, ...ports },
    });
  });
});

test("the relay's own code imports nothing of the sandbox (a production relay carries no stand-in)", () => {
  const files = (readdirSync(path.join(ROOT, "relay"), { recursive: true }) as string[]).filter((file) =>
    file.endsWith(".ts"),
  );
  expect(files.length).toBeGreaterThan(10);
  const offenders = files.filter((file) =>
    /from\s+["'][./]*sandbox\//.test(readFileSync(path.join(ROOT, "relay", file), "utf8")),
  );
  expect(offenders).toEqual([]);
});
