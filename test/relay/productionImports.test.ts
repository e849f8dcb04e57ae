/**
 * The relay's production code (every file under relay/) imports nothing of sandbox/, directly or through
 * src/: a relay deployed at a team runs without the local stand-in of the service. The import graph is the
 * one esbuild follows when it bundles the relay (as relay/Dockerfile does), from every file, not only the entry.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const ROOT = path.resolve(__dirname, "../..");

function typeScriptFiles(directory: string): string[] {
  return readdirSync(path.join(ROOT, directory), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(directory, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(relative);
    return entry.name.endsWith(".ts") ? [relative] : [];
  });
}

/** Every file of the repository that `entries` reach through their imports (packages left out). */
async function reachedFrom(entries: string[]): Promise<string[]> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: entries,
    bundle: true,
    platform: "node",
    packages: "external",
    write: false,
    metafile: true,
    outdir: "unused",
    logLevel: "silent",
  });
  return Object.keys(result.metafile.inputs);
}

test("no file of relay/ reaches sandbox/ through its imports", async () => {
  const entries = typeScriptFiles("relay");
  expect(entries).toContain("relay/main.ts");
  const reached = await reachedFrom(entries);
  // The graph does reach src/ (the relay reuses the add-in's contract and data layer): the walk is real.
  expect(reached).toEqual(expect.arrayContaining(["relay/main.ts", "src/api/operations.ts"]));
  expect(reached.filter((file) => file.startsWith("sandbox/"))).toEqual([]);
});
