/**
 * The tests in four jest projects, by the heaviest thing each file starts, read from its code
 * (test/support/testWeight.js: `node test/support/testWeight.js` lists every file with its weight and why).
 * No list of files or folders: a new test file lands in its project by what it calls. `npm test` and a bare
 * `jest` run all four.
 *
 * - unit: starts nothing, or a sandbox in its own process reached through fastify's `inject`
 *   (test/support/inProcessSandbox.ts). `npm run test:unit` runs it alone, the loop to run while changing
 *   code; its test environment fails a file that listens on a port or starts a program at once
 *   (test/support/workerEnvironment.ts). No global setup, so no apt.
 * - server: a port on 127.0.0.1 (a sandbox or relay over real HTTP, a stub server) or another process.
 * - redis: redis-server (the relay's shared store).
 * - browser: Chromium or a webpack build of the add-in (`npm run test:e2e`).
 *
 * Type checking is `npm run typecheck`'s job; jest only transpiles (isolatedModules), which keeps it fast.
 */
const path = require("node:path");
const { classifyTestsCached } = require("./test/support/testWeight");

const PROJECT_OF_WEIGHT = {
  nothing: "unit",
  "in-process sandbox": "unit",
  "port or process": "server",
  redis: "redis",
  browser: "browser",
};
const filesOf = (project) =>
  classifyTestsCached()
    .filter((entry) => PROJECT_OF_WEIGHT[entry.name] === project)
    .map((entry) => `<rootDir>/${path.relative(__dirname, entry.file).split(path.sep).join("/")}`);

/** @type {import('jest').Config} */
const shared = {
  rootDir: __dirname,
  testEnvironment: "<rootDir>/test/support/workerEnvironment.ts",
  setupFiles: ["<rootDir>/test/support/customFunctionsGlobal.ts"],
  transform: {
    "^.+\\.[tj]sx?$": "<rootDir>/test/support/esbuildTransform.js",
  },
  // These packages ship ES modules only (cookie: light-my-request's, under fastify's inject); jest runs CommonJS, so the transform (esbuild) turns them into CommonJS too.
  transformIgnorePatterns: [
    "/node_modules/(?!(?:.*/node_modules/)?(?:strip-bom|uuid|hyparquet|hyparquet-writer|idb-keyval|openapi-fetch|marked|cookie)/)",
  ],
  // scripts/jest.sh runs jest on the relay container's Node with better-sqlite3 built for it in a copy (the native
  // addon of node_modules is built for the Node that installed it).
  ...(process.env.RELAY_SQLITE_PACKAGE
    ? { moduleNameMapper: { "^better-sqlite3$": process.env.RELAY_SQLITE_PACKAGE } }
    : {}),
};

/**
 * Installs what npm cannot (Chromium and redis-server, in one apt-get run) on a fresh machine, or says how;
 * closes what test files shared when they ran in this process (a run in band).
 */
const systemTools = {
  globalSetup: "<rootDir>/test/support/globalSetup.ts",
  globalTeardown: "<rootDir>/test/support/globalTeardown.ts",
};

/** @type {import('jest').Config} */
module.exports = {
  // With --coverage (npm run test:unit:coverage): the lines of src/ and relay/ the tests run, in one summary. src/api/schema.ts
  // is types only (generated), which V8 would count as run whenever the module loads.
  collectCoverageFrom: ["src/**/*.ts", "relay/**/*.ts", "!src/api/schema.ts"],
  // The esbuild transform leaves jest's default (babel) instrumentation nothing to see.
  coverageProvider: "v8",
  coverageReporters: ["text-summary"],
  coverageDirectory: "<rootDir>/node_modules/.cache/jest-coverage",
  // Both cores of the project's machine (jest's default leaves one to itself, which runs everything in band).
  maxWorkers: "100%",
  testTimeout: 30000,
  // A worker that ends closes the browser and previews its files shared; that takes a moment.
  workerGracefulExitTimeout: 10_000,
  projects: [
    { ...shared, displayName: "unit", testMatch: filesOf("unit"), testEnvironmentOptions: { unit: true } },
    {
      ...shared,
      globalTeardown: systemTools.globalTeardown,
      displayName: "server",
      testMatch: filesOf("server"),
    },
    { ...shared, ...systemTools, displayName: "redis", testMatch: filesOf("redis") },
    {
      ...shared,
      ...systemTools,
      // Also builds the add-in the preview serves, before any file starts.
      globalSetup: "<rootDir>/test/e2e/support/globalSetup.ts",
      displayName: "browser",
      testMatch: filesOf("browser"),
    },
  ],
};
