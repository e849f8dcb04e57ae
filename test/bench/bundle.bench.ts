/**
 * Bundle benchmark (issue 8): the gzipped size of everything taskpane.html (the shared runtime's page) loads
 * at start, from a fresh production build into a temporary directory. Goal: under 250 KB.
 *
 *   npx tsx test/bench/bundle.bench.ts [--json]
 *
 * "At start" is what the built page references: its own HTML, scripts, stylesheets and images, and whatever
 * url(...) the stylesheets name. Chunks the code loads on demand (the file parsers) are listed apart, and so
 * are external scripts (office.js comes from Microsoft's CDN and is cached by Office, not served by us).
 * Sizes are gzip at the default level (6), as a web server would send them; source maps are not loaded.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

const GOAL_KB = 250;
const PAGE = "taskpane.html";

interface FileSize {
  file: string;
  raw: number;
  gzip: number;
}

interface Figures {
  start_gzip_kb: number;
  start_raw_kb: number;
  on_demand_gzip_kb: number;
}

function build(outDir: string): void {
  const result = spawnSync("npx", ["webpack", "--mode", "production", "--env", `outDir=${outDir}`], {
    cwd: resolve(__dirname, "../.."),
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`webpack failed:\n${result.stdout}\n${result.stderr}`);
}

/** An attribute's value, quoted or not (the production build minifies the page and drops quotes). */
const ATTRIBUTE_VALUE = `(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`;
const HTML_REFERENCE = new RegExp(`<(?:script|img|link)\\b[^>]*?\\b(?:src|href)=${ATTRIBUTE_VALUE}`, "gi");
const CSS_REFERENCE = /url\(\s*['"]?([^'")]+)['"]?\s*\)/g;

/** Local files an HTML page or a stylesheet references; external URLs are returned apart. */
function referencesIn(text: string, kind: "html" | "css"): { local: string[]; external: string[] } {
  const local: string[] = [];
  const external: string[] = [];
  for (const match of text.matchAll(kind === "html" ? HTML_REFERENCE : CSS_REFERENCE)) {
    const reference = match[1] ?? match[2] ?? match[3];
    if (!reference || reference.startsWith("data:")) continue;
    if (/^[a-z]+:\/\//i.test(reference)) external.push(reference);
    else local.push(reference.split(/[?#]/)[0] ?? reference);
  }
  return { local, external };
}

function sizeOf(outDir: string, file: string): FileSize {
  const bytes = readFileSync(join(outDir, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes).length };
}

/** The page and everything it pulls in at load, following stylesheets' url(...) references. */
function startSet(outDir: string): { files: FileSize[]; external: string[] } {
  const seen = new Set<string>([PAGE]);
  const queue = [PAGE];
  const external: string[] = [];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (!file.endsWith(".html") && !file.endsWith(".css")) continue;
    const found = referencesIn(
      readFileSync(join(outDir, file), "utf8"),
      file.endsWith(".css") ? "css" : "html",
    );
    external.push(...found.external);
    for (const reference of found.local) {
      if (seen.has(reference)) continue;
      if (!existsSync(join(outDir, reference))) throw new Error(`${file} references ${reference}, not built`);
      seen.add(reference);
      queue.push(reference);
    }
  }
  return { files: [...seen].map((file) => sizeOf(outDir, file)), external };
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

function measure(): { figures: Figures; start: FileSize[]; onDemand: FileSize[]; external: string[] } {
  const outDir = mkdtempSync(join(tmpdir(), "rent-market-bundle-"));
  try {
    build(outDir);
    const { files: start, external } = startSet(outDir);
    const startNames = new Set(start.map((entry) => entry.file));
    const onDemand = readdirSync(outDir)
      .filter((file) => file.endsWith(".js") && !startNames.has(file))
      .map((file) => sizeOf(outDir, file));
    const total = (entries: FileSize[], key: "raw" | "gzip") =>
      entries.reduce((sum, entry) => sum + entry[key], 0);
    return {
      figures: {
        start_gzip_kb: kb(total(start, "gzip")),
        start_raw_kb: kb(total(start, "raw")),
        on_demand_gzip_kb: kb(total(onDemand, "gzip")),
      },
      start,
      onDemand,
      external,
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

function main(): void {
  const { figures, start, onDemand, external } = measure();
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(figures, null, 2));
    return;
  }
  console.log(`Bundle benchmark: what ${PAGE} loads at start (fresh production build, gzip level 6)\n`);
  const rows = (entries: FileSize[]) =>
    Object.fromEntries(
      entries.map((entry) => [entry.file, { raw_kb: kb(entry.raw), gzip_kb: kb(entry.gzip) }]),
    );
  console.table(rows(start));
  if (onDemand.length === 0) console.log("Loaded on demand (not at start): no such chunk in this build");
  else {
    console.log("Loaded on demand (not at start):");
    console.table(rows(onDemand));
  }
  console.log(`External, not counted: ${external.join(", ") || "none"}`);
  console.log(
    `\nAt start: ${figures.start_gzip_kb} KB gzipped (${figures.start_raw_kb} KB raw); goal < ${GOAL_KB} KB: ${figures.start_gzip_kb < GOAL_KB ? "met" : "NOT met"}`,
  );
}

main();
