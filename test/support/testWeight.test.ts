/**
 * The reading that puts each test file in its jest project (jest.config.js), on a small project of its own in the
 * temp directory: a file weighs the heaviest thing it starts, itself or through the helpers it calls.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { classifyTests } = require("./testWeight.js") as {
  classifyTests(root: string): { file: string; name: string; why: string }[];
};

let root: string;

function write(file: string, text: string): void {
  const full = path.join(root, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
}

function weights(): Record<string, string> {
  return Object.fromEntries(
    classifyTests(root).map((entry) => [path.relative(root, entry.file), entry.name]),
  );
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "test-weight-"));
  write(
    "test/support/sandboxes.ts",
    [
      'import { startSandbox, buildSandbox } from "../../sandbox/server";',
      "export const ACCOUNT = 100;",
      "export const overHttp = () => startSandbox({ port: 0 });",
      "export const inProcess = () => buildSandbox();",
      "export function viaHelper() { return overHttp(); }",
    ].join("\n"),
  );
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

it("weighs a file by the one helper function it calls, not by the rest of the helper's module", () => {
  write(
    "test/a/constant.test.ts",
    'import { ACCOUNT } from "../support/sandboxes";\nit("x", () => ACCOUNT);',
  );
  write("test/a/inProcess.test.ts", 'import { inProcess } from "../support/sandboxes";\nit("x", inProcess);');
  write("test/a/http.test.ts", 'import { viaHelper } from "../support/sandboxes";\nit("x", viaHelper);');
  write(
    "test/a/typeOnly.test.ts",
    'import type { overHttp } from "../support/sandboxes";\nit("x", () => 1);',
  );
  expect(weights()).toMatchObject({
    "test/a/constant.test.ts": "nothing",
    "test/a/inProcess.test.ts": "in-process sandbox",
    "test/a/http.test.ts": "port or process",
    "test/a/typeOnly.test.ts": "nothing",
  });
});

it("reads ports, processes, redis-server, esbuild and browsers, and takes the heaviest", () => {
  write(
    "test/b/listens.test.ts",
    'import net from "node:net";\nit("x", () => net.createServer().listen(0));',
  );
  write("test/b/spawns.test.ts", 'import { spawn } from "node:child_process";\nit("x", () => spawn("ls"));');
  write("test/b/esbuild.test.ts", 'import { build } from "esbuild";\nit("x", () => build({}));');
  write(
    "test/support/redis.ts",
    'import { spawn } from "node:child_process";\nexport const redis = () => spawn("redis-server");',
  );
  write("test/b/redis.test.ts", 'import { redis } from "../support/redis";\nit("x", redis);');
  write(
    "test/b/browser.test.ts",
    'import { chromium } from "playwright-core";\nimport { redis } from "../support/redis";\nit("x", () => chromium.launch());',
  );
  expect(weights()).toMatchObject({
    "test/b/listens.test.ts": "port or process",
    "test/b/spawns.test.ts": "port or process",
    "test/b/esbuild.test.ts": "port or process",
    "test/b/redis.test.ts": "redis",
    "test/b/browser.test.ts": "browser",
  });
});

it("follows a script a test imports, but not what runs only when the script is a program", () => {
  write(
    "scripts/generate.ts",
    [
      'import { execFileSync } from "node:child_process";',
      "export const pure = () => 1;",
      'export const formatted = () => execFileSync(process.execPath, ["x"]);',
      "if (require.main === module) formatted();",
    ].join("\n"),
  );
  write("test/c/pure.test.ts", 'import { pure } from "../../scripts/generate";\nit("x", pure);');
  write(
    "test/c/formatted.test.ts",
    'import { formatted } from "../../scripts/generate";\nit("x", formatted);',
  );
  expect(weights()).toMatchObject({
    "test/c/pure.test.ts": "nothing",
    "test/c/formatted.test.ts": "port or process",
  });
});
