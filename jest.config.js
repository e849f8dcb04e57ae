/** Type checking is `npm run typecheck`'s job; jest only transpiles (isolatedModules), which keeps it fast. */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // Installs what npm cannot (Chromium, redis-server) on a fresh machine, or says how.
  globalSetup: "<rootDir>/test/support/globalSetup.ts",
  setupFiles: ["<rootDir>/test/support/customFunctionsGlobal.ts"],
  transform: {
    "^.+\\.[tj]sx?$": ["ts-jest", { tsconfig: "<rootDir>/tsconfig.jest.json", diagnostics: false }],
  },
  // These packages ship ES modules only; jest runs CommonJS, so ts-jest transpiles them too.
  transformIgnorePatterns: [
    "/node_modules/(?!(?:.*/node_modules/)?(?:strip-bom|uuid|hyparquet|hyparquet-writer|idb-keyval|openapi-fetch|marked)/)",
  ],
  testTimeout: 30000,
};
