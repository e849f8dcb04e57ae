/**
 * A production build of the add-in for the preview, made once per state of its sources: the e2e test files
 * (in parallel jest workers) and `npm run preview` share it instead of each spending ~40 s of CPU on webpack.
 * The build goes to a directory named by a hash of everything webpack reads; a lock directory makes
 * concurrent callers wait for the one that builds.
 *
 * These builds skip ts-loader's type check (`--env transpileOnly`): the bundle is the same byte for byte, the
 * check is a third of a build's time, and `npm test` type-checks everything first (`npm run typecheck`).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { filesUnder, inputsHash, keepAndSweep } from "../support/keptByInputs";

const ROOT = join(__dirname, "..", "..");
/** What the webpack build reads: its config, the sources, the function reference (help page), manifest and icons. */
const BUILD_INPUTS = [
  "src",
  "assets",
  "scripts",
  "webpack.config.js",
  "docs/functions.md",
  "manifest.xml",
  "package-lock.json",
];
/**
 * The one build for a server (`ADDIN_BASE_URL`) the tests make: every test of such a build (the built
 * manifest, the real office.js under its policy, the add-in served by the team relay) shares it, so a run
 * makes two builds, not one per test file's choice of URL.
 */
export const SERVER_BASE_URL = "https://addin.example.com/rent/";
export const SERVER_BUILD: Record<string, string> = { ADDIN_BASE_URL: SERVER_BASE_URL };

const LOCK_STALE_MS = 5 * 60_000;
const LOCK_POLL_MS = 250;
function sourcesHash(env: Record<string, string>): string {
  return inputsHash(
    ROOT,
    BUILD_INPUTS.flatMap((input) => filesUnder(join(ROOT, input))),
    env,
  );
}

function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch {
    // Someone else builds, or crashed while building long ago.
    const held = statSync(lock, { throwIfNoEntry: false });
    if (held && Date.now() - held.mtimeMs > LOCK_STALE_MS) {
      rmSync(lock, { recursive: true, force: true });
    }
    return false;
  }
}

/**
 * The directory of a production build of the current sources (built now if there is none yet). `env` adds
 * build settings, e.g. `ADDIN_BASE_URL` for a build served by the team relay.
 */
export async function addInBuild(env: Record<string, string> = {}): Promise<string> {
  const base = join(tmpdir(), "rent-market-preview-builds");
  mkdirSync(base, { recursive: true });
  const target = join(base, sourcesHash(env));
  const lock = `${target}.lock`;
  while (!existsSync(target)) {
    if (!tryLock(lock)) {
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
      continue;
    }
    try {
      if (!existsSync(target)) {
        const staging = `${target}.staging`;
        rmSync(staging, { recursive: true, force: true });
        await promisify(execFile)(
          process.execPath,
          [
            join(ROOT, "node_modules", "webpack", "bin", "webpack.js"),
            "--mode",
            "production",
            "--env",
            `outDir=${staging}`,
            "--env",
            "transpileOnly",
          ],
          { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } },
        ).catch((error: { stdout?: string; stderr?: string }) => {
          // webpack writes its errors to stdout; the bare "Command failed" would hide what broke the build.
          const output = `${error.stdout ?? ""}${error.stderr ?? ""}`;
          const firstError = output.search(/^ERROR/m);
          const shown = (firstError >= 0 ? output.slice(firstError) : output.slice(-4000)).slice(0, 4000);
          throw new Error(`The add-in's webpack build failed:\n${shown || String(error)}`);
        });
        renameSync(staging, target);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  // Marks the build as in use, then drops builds of other sources that have not been used for a day.
  keepAndSweep(base, target);
  return target;
}
