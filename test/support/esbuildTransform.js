/**
 * Jest's transform: each TypeScript (and ES-module-only package) file turned into CommonJS by esbuild, one file
 * at a time. Type checking is `npm run typecheck`'s job, so a transpiler is all jest needs; esbuild does it in a
 * fraction of the TypeScript compiler's time, which is most of a run's cost on a machine with no transform cache
 * (CI's fresh clone). The options follow tsconfig.json: ES2022 class fields, files as isolated modules.
 */
const { createHash } = require("node:crypto");
const { transformSync, version } = require("esbuild");

const OPTIONS = {
  format: "cjs",
  target: "es2022",
  platform: "node",
  sourcemap: "inline",
  sourcesContent: false,
  // import() becomes a require() in a promise, as TypeScript writes it for CommonJS: jest runs no ES modules.
  supported: { "dynamic-import": false },
  tsconfigRaw: { compilerOptions: { useDefineForClassFields: true, verbatimModuleSyntax: false } },
};

const loaderOf = (path) => (/\.tsx?$/.test(path) ? "ts" : "js");

module.exports = {
  process(source, path) {
    const { code } = transformSync(source, { ...OPTIONS, loader: loaderOf(path), sourcefile: path });
    return { code };
  },
  getCacheKey(source, path) {
    return createHash("sha256")
      .update(version)
      .update("\0")
      .update(JSON.stringify(OPTIONS))
      .update("\0")
      .update(path)
      .update("\0")
      .update(source)
      .digest("hex");
  },
};
