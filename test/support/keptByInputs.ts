/**
 * What the tests make once per state of its inputs and keep in the temp directory (the add-in's builds, the
 * checker's analysis of its source): the hash that names a state, and the sweep of states nobody uses any more.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from "node:fs";
import { join, relative } from "node:path";

/** A kept result nobody has used for this long is removed (a build is a few MB). */
const UNUSED_MS = 24 * 60 * 60_000;

/** Every file at or under `path`, in a stable order; none when it does not exist. */
export function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

/** A short hash of `settings` and of each file's path (relative to `root`) and bytes. */
export function inputsHash(root: string, files: readonly string[], settings: unknown = {}): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(settings));
  for (const file of files)
    hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  return hash.digest("hex").slice(0, 16);
}

/** Marks `kept` (a file or directory in `base`) as in use, then removes the others of `base` unused for a day. */
export function keepAndSweep(base: string, kept: string): void {
  const now = new Date();
  utimesSync(kept, now, now);
  for (const name of readdirSync(base)) {
    const path = join(base, name);
    const used = statSync(path, { throwIfNoEntry: false });
    if (path !== kept && used && now.getTime() - used.mtimeMs > UNUSED_MS) {
      rmSync(path, { recursive: true, force: true });
    }
  }
}
