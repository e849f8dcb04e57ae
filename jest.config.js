/**
 * The tests in four jest projects, by what they need. `npm run test:unit` runs the unit project alone (the
 * fast loop); `npm test` and a bare `jest` run all four.
 *
 * - unit: everything not named below. Starts no server, browser or other program: its test environment
 *   makes a file that tries fail at once (test/support/workerEnvironment.ts). No global setup, so no apt.
 * - sandbox: the sandbox's own tests, the functions' and the reliability tests, and any `*.sandbox.test.ts`:
 *   a sandbox (an HTTP server on 127.0.0.1) in the test's process.
 * - browser: Chromium (e2e, browser) and webpack builds of the add-in (host, manifest).
 * - relay: the team relay, with redis-server.
 *
 * Type checking is `npm run typecheck`'s job; jest only transpiles (isolatedModules), which keeps it fast.
 */

/** Folders of test/ whose files belong to a project other than unit. */
const FOLDERS = {
  sandbox: ["sandbox", "functions", "reliability"],
  browser: ["e2e", "browser", "host", "manifest"],
  relay: ["relay"],
};
/** A test file elsewhere that starts a sandbox says so in its name. */
const SANDBOX_FILE = "\\.sandbox\\.test\\.ts$";

const under = (folders) => `<rootDir>/test/(${folders.join("|")})/`;
const inFolders = (folders) => folders.map((folder) => `<rootDir>/test/${folder}/**/*.test.ts`);

/** @type {import('jest').Config} */
const shared = {
  rootDir: __dirname,
  testEnvironment: "<rootDir>/test/support/workerEnvironment.ts",
  setupFiles: ["<rootDir>/test/support/customFunctionsGlobal.ts"],
  transform: {
    "^.+\\.[tj]sx?$": "<rootDir>/test/support/esbuildTransform.js",
  },
  // These packages ship ES modules only; jest runs CommonJS, so the transform (esbuild) turns them into CommonJS too.
  transformIgnorePatterns: [
    "/node_modules/(?!(?:.*/node_modules/)?(?:strip-bom|uuid|hyparquet|hyparquet-writer|idb-keyval|openapi-fetch|marked)/)",
  ],
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
  // Both cores of the project's machine (jest's default leaves one to itself, which runs everything in band).
  maxWorkers: "100%",
  testTimeout: 30000,
  // A worker that ends closes the browser and previews its files shared; that takes a moment.
  workerGracefulExitTimeout: 10_000,
  projects: [
    {
      ...shared,
      displayName: "unit",
      testMatch: ["<rootDir>/test/**/*.test.ts"],
      testPathIgnorePatterns: [under(Object.values(FOLDERS).flat()), SANDBOX_FILE],
      testEnvironmentOptions: { unit: true },
    },
    {
      ...shared,
      displayName: "sandbox",
      testMatch: [...inFolders(FOLDERS.sandbox), "<rootDir>/test/**/*.sandbox.test.ts"],
      testPathIgnorePatterns: [under([...FOLDERS.browser, ...FOLDERS.relay])],
    },
    {
      ...shared,
      ...systemTools,
      // Also builds the add-in the preview serves, before any file starts.
      globalSetup: "<rootDir>/test/e2e/support/globalSetup.ts",
      displayName: "browser",
      testMatch: inFolders(FOLDERS.browser),
    },
    {
      ...shared,
      ...systemTools,
      displayName: "relay",
      testMatch: inFolders(FOLDERS.relay),
      // `npm run test:relay:lts` runs these on the container's Node with better-sqlite3 built for it in a copy
      // (the native addon of node_modules is built for the Node that installed it).
      ...(process.env.RELAY_SQLITE_PACKAGE
        ? { moduleNameMapper: { "^better-sqlite3$": process.env.RELAY_SQLITE_PACKAGE } }
        : {}),
    },
  ],
};
