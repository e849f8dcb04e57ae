/**
 * The deployment files, read without a Docker engine: the secrets' folder is kept out of git and out of the
 * image's build context, the image runs a Node LTS line still in support, and compose runs every container
 * without capabilities or new privileges, with memory and process bounds, and Redis behind a password that
 * comes from a secret file.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { withStorePassword } from "../../relay/options";

const ROOT = path.resolve(__dirname, "../..");
const SECRET = "relay/secrets/client_secret";

/** Whether git's ignore rules in `directory` leave `file` out (`git check-ignore` exits 0 when they do). */
function ignoredBy(directory: string, file: string): boolean {
  try {
    execFileSync("git", ["check-ignore", "--no-index", "-q", file], { cwd: directory, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

test("git ignores relay/secrets/, so `git add -A` commits no client secret", () => {
  expect(ignoredBy(ROOT, SECRET)).toBe(true);
  expect(ignoredBy(ROOT, "relay/secrets/redis_password")).toBe(true);
  // The rule is the folder's, not a blanket one: the relay's code is not ignored.
  expect(ignoredBy(ROOT, "relay/server.ts")).toBe(false);
});

test("the image's build context leaves relay/secrets/ out, so `COPY . .` never copies a secret", () => {
  // The dockerignore's patterns read as gitignore patterns of a fresh repository (both anchor a pattern with
  // a slash at the context's root).
  const directory = mkdtempSync(path.join(tmpdir(), "dockerignore-"));
  try {
    execFileSync("git", ["init", "-q"], { cwd: directory });
    copyFileSync(path.join(ROOT, "relay/Dockerfile.dockerignore"), path.join(directory, ".gitignore"));
    expect(ignoredBy(directory, SECRET)).toBe(true);
    expect(ignoredBy(directory, "relay/secrets/redis_password")).toBe(true);
    expect(ignoredBy(directory, "relay/server.ts")).toBe(false);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

/** When each Node LTS line stops getting security fixes (nodejs.org/en/about/previous-releases). */
const LTS_END_OF_LIFE: Record<number, string> = {
  18: "2025-04-30",
  20: "2026-04-30",
  22: "2027-04-30",
  24: "2028-04-30",
};

test("the image runs a Node LTS line that still gets security fixes", () => {
  const dockerfile = readFileSync(path.join(ROOT, "relay/Dockerfile"), "utf8");
  const image = /^ARG NODE_IMAGE=node:(\d+)[\w.-]*$/m.exec(dockerfile);
  expect(image).not.toBeNull();
  expect(dockerfile).toMatch(/^FROM \$\{NODE_IMAGE\}$/m);
  const major = Number(image?.[1]);
  const endOfLife = LTS_END_OF_LIFE[major];
  expect(endOfLife).toBeDefined();
  expect(Date.parse(endOfLife as string)).toBeGreaterThan(Date.now());
  // The bundle is built for the same line.
  expect(dockerfile).toContain(`--target=node${major}`);
});

interface Service {
  image?: string;
  build?: { dockerfile?: string };
  cap_drop?: string[];
  security_opt?: string[];
  read_only?: boolean;
  mem_limit?: string;
  pids_limit?: number;
  user?: string;
  command?: string[];
  environment?: Record<string, string>;
  secrets?: string[];
  healthcheck?: { test: string[] };
}

const compose = parse(readFileSync(path.join(ROOT, "relay/compose.yaml"), "utf8"), { merge: true }) as {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
};

test("every container runs without capabilities or new privileges, read-only, with memory and process bounds", () => {
  const services = Object.entries(compose.services);
  expect(services.length).toBe(3);
  for (const [, service] of services) {
    expect(service.cap_drop).toEqual(["ALL"]);
    expect(service.security_opt).toContain("no-new-privileges:true");
    expect(service.read_only).toBe(true);
    expect(service.mem_limit).toMatch(/^\d+[kmg]$/);
    expect(service.pids_limit).toBeGreaterThan(0);
  }
});

test("Redis asks for a password from a secret file, and the relays get it from the same file, not a URL", () => {
  const redis = Object.values(compose.services).find((service) => service.image?.startsWith("redis:"));
  expect(redis?.secrets).toContain("redis_password");
  const start = (redis?.command ?? []).join(" ");
  expect(start).toMatch(/requirepass/);
  expect(start).toContain("/run/secrets/redis_password");
  // Not root: without capabilities the image could not switch to its own user.
  expect(redis?.user).not.toMatch(/^(0|root)(:|$)/);
  expect(redis?.healthcheck?.test.join(" ")).toMatch(/REDISCLI_AUTH=.*\/run\/secrets\/redis_password/);
  expect(compose.secrets.redis_password?.file).toBe("./secrets/redis_password");
  const relays = Object.values(compose.services).filter(
    (service) => service.build?.dockerfile === "relay/Dockerfile",
  );
  expect(relays).toHaveLength(2);
  for (const relay of relays) {
    expect(relay.secrets).toContain("redis_password");
    expect(relay.environment?.RELAY_STORE_PASSWORD_FILE).toBe("/run/secrets/redis_password");
    // The URL names no password: it would show in `docker inspect`.
    expect(new URL(relay.environment?.RELAY_STORE as string).password).toBe("");
  }
});

test("the relay adds the password file's password to a Redis URL that names none, and to nothing else", () => {
  expect(new URL(withStorePassword("redis://redis:6379", "p@ss:w/rd")).password).toBe(
    encodeURIComponent("p@ss:w/rd"),
  );
  expect(decodeURIComponent(new URL(withStorePassword("redis://redis:6379", "p@ss:w/rd")).password)).toBe(
    "p@ss:w/rd",
  );
  expect(withStorePassword("redis://:given@redis:6379", "other")).toBe("redis://:given@redis:6379");
  expect(withStorePassword("/data/relay.sqlite", "other")).toBe("/data/relay.sqlite");
  expect(withStorePassword("redis://redis:6379", undefined)).toBe("redis://redis:6379");
});
