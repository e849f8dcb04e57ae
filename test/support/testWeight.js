/**
 * What a test file starts, read from its source: the heaviest of what it calls, itself or through the helpers
 * of test/ it imports (followed function by function, so a helper module that can also start a server does
 * not weigh on a test that only takes its constants). jest.config.js puts each file in the project of its
 * weight, so a new test file lands in the right project without a list to edit or a name to choose.
 *
 * The reading is static and errs heavy: a name that could start something counts as starting it. The unit
 * project's environment (./workerEnvironment.ts) is the net for the other way: a file read as starting nothing
 * that listens on a port or starts a program fails at once, saying so.
 *
 * `node test/support/testWeight.js` prints every test file's weight and the reason.
 */
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
/**
 * The TypeScript parser, loaded by the first reading: jest loads this module with its config on every run, and
 * a run whose weights are cached (classifyTestsCached) never needs the parser, whose loading alone takes about
 * 0.3 s.
 */
let ts;

/** Heaviest last. */
const WEIGHTS = ["nothing", "in-process sandbox", "port or process", "redis", "browser"];
const W = Object.fromEntries(WEIGHTS.map((name, index) => [name, index]));

/**
 * Calls that start something, on the text of one declaration (a helper function) or of a whole test file.
 * The production starters live outside test/ (sandbox/server.ts, relay/server.ts), so they are named here;
 * test/ helpers are followed through their code instead.
 */
const MARKERS = [
  { weight: W.browser, pattern: /\bchromium\s*\.\s*launch\s*\(/, what: "launches Chromium" },
  { weight: W.browser, pattern: /webpack(?:\.js|-dev-server|["'])/, what: "runs webpack" },
  // Spawned by a helper in the same declaration that names it (the name alone, in a list of tools, starts nothing).
  {
    weight: W.redis,
    pattern: /redis-server[^]*\bspawn\s*\(|\bspawn\s*\([^]*redis-server/,
    what: "runs redis-server",
  },
  { weight: W["port or process"], pattern: /\.listen\s*\(/, what: "listens on a port" },
  {
    weight: W["port or process"],
    pattern: /\b(?:startSandbox|startRelay)\s*\(/,
    what: "starts a sandbox or relay on a port",
  },
  {
    weight: W["port or process"],
    pattern: /(?<![.\w])(?:spawn|spawnSync|execFile|execFileSync|exec|execSync|fork)\s*\(/,
    what: "starts a process",
  },
  { weight: W["in-process sandbox"], pattern: /\bbuildSandbox\s*\(/, what: "builds a sandbox in process" },
];

/** Packages whose code starts something once called: a name imported from one weighs what it starts. */
const PACKAGES = {
  esbuild: { weight: W["port or process"], what: "runs esbuild (its own process)" },
  "playwright-core": { weight: W.browser, what: "drives a browser" },
  webpack: { weight: W.browser, what: "runs webpack" },
};

const PROJECT_ROOT = path.resolve(__dirname, "../..");

/**
 * `weightOf(file)`: { weight, name, why } for a test file of the project at `root`. Followed through their code:
 * the tests' helpers (test/) and the scripts tests run (scripts/, the generators).
 */
function createReader(root) {
  ts ??= require("typescript");
  const FOLLOWED = [path.join(root, "test"), path.join(root, "scripts")];
  const modules = new Map();

  function resolveImport(from, specifier) {
    if (!specifier.startsWith(".")) return undefined;
    const base = path.resolve(path.dirname(from), specifier);
    // TypeScript only: the .js files of test/ are jest's own configuration (this reader, the transform).
    for (const candidate of [base, `${base}.ts`, path.join(base, "index.ts")].filter((file) =>
      file.endsWith(".ts"),
    ))
      if (FOLLOWED.some((root) => candidate.startsWith(root + path.sep)) && isFile(candidate))
        return candidate;
    return undefined;
  }

  /** A module's top-level declarations, its imports from test/, and what its top-level statements run. */
  function moduleOf(file) {
    const known = modules.get(file);
    if (known) return known;
    const text = fs.readFileSync(file, "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const module = { file, source, declarations: new Map(), imports: new Map(), wholeImports: [], run: [] };
    modules.set(file, module);
    for (const statement of source.statements) {
      if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) {
        if (!statement.moduleSpecifier || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
        const specifier = statement.moduleSpecifier.text;
        const target = PACKAGES[specifier] ? { package: specifier } : resolveImport(file, specifier);
        if (!target) continue;
        const typeOnly = ts.isImportDeclaration(statement)
          ? statement.importClause?.isTypeOnly
          : statement.isTypeOnly;
        if (typeOnly) continue;
        noteImport(module, statement, target);
        continue;
      }
      const names = declaredNames(statement);
      // `if (require.main === module) main()` runs when the file is a program, not when a test imports it.
      const asProgram =
        ts.isIfStatement(statement) && /\brequire\.main\b/.test(statement.expression.getText());
      if (names.length === 0 && !asProgram) module.run.push(statement);
      for (const name of names) module.declarations.set(name, statement);
    }
    // import("./x") and require("./x") anywhere: the whole module.
    const visit = (node) => {
      if (
        ts.isCallExpression(node) &&
        (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
          (ts.isIdentifier(node.expression) && node.expression.text === "require")) &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        const specifier = node.arguments[0].text;
        const target = PACKAGES[specifier] ? { package: specifier } : resolveImport(file, specifier);
        if (target) module.wholeImports.push(target);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return module;
  }

  function noteImport(module, statement, target) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (!clause)
        module.wholeImports.push(target); // export * from
      else if (ts.isNamedExports(clause))
        for (const element of clause.elements)
          if (!element.isTypeOnly)
            module.imports.set(element.name.text, {
              target,
              name: (element.propertyName ?? element.name).text,
            });
      return;
    }
    const clause = statement.importClause;
    if (!clause) {
      module.wholeImports.push(target); // import "./x" (for its effects)
      return;
    }
    if (clause.name) module.imports.set(clause.name.text, { target, name: "*" });
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings))
      module.imports.set(bindings.name.text, { target, name: "*" });
    if (bindings && ts.isNamedImports(bindings))
      for (const element of bindings.elements)
        if (!element.isTypeOnly)
          module.imports.set(element.name.text, {
            target,
            name: (element.propertyName ?? element.name).text,
          });
  }

  const heaviest = (a, b) => (b.weight > a.weight ? b : a);
  const NONE = { weight: W.nothing, why: "" };

  function markersOf(node, where) {
    const text = withoutCodeInStrings(node.getText());
    let found = NONE;
    for (const marker of MARKERS)
      if (marker.weight > found.weight && marker.pattern.test(text))
        found = { weight: marker.weight, why: `${where} ${marker.what}` };
    return found;
  }

  const symbolWeights = new Map();

  /** The weight of running `node` (a declaration or statement) of `module`: its markers and every name it uses. */
  function nodeWeight(module, node, where, seen) {
    let found = markersOf(node, where);
    const visit = (child) => {
      if (ts.isIdentifier(child)) {
        const name = child.text;
        const imported = module.imports.get(name);
        if (imported) found = heaviest(found, exportWeight(imported.target, imported.name, seen));
        else if (module.declarations.has(name) && module.declarations.get(name) !== node)
          found = heaviest(found, localWeight(module, name, seen));
      }
      ts.forEachChild(child, visit);
    };
    ts.forEachChild(node, visit);
    return found;
  }

  function localWeight(module, name, seen) {
    const key = `${module.file}#${name}`;
    if (symbolWeights.has(key)) return symbolWeights.get(key);
    if (seen.has(key)) return NONE;
    seen.add(key);
    const where = `${path.relative(root, module.file)} (${name})`;
    const weight = nodeWeight(module, module.declarations.get(name), where, seen);
    symbolWeights.set(key, weight);
    return weight;
  }

  /** Importing a module runs its top-level statements; an export's weight adds what it runs itself. */
  function exportWeight(file, name, seen) {
    if (file.package) {
      const known = PACKAGES[file.package];
      return { weight: known.weight, why: `${file.package} ${known.what}` };
    }
    const module = moduleOf(file);
    let found = importWeight(module, seen);
    if (name === "*")
      for (const local of module.declarations.keys())
        found = heaviest(found, localWeight(module, local, seen));
    else if (module.declarations.has(name)) found = heaviest(found, localWeight(module, name, seen));
    else if (module.imports.has(name)) {
      const reexport = module.imports.get(name);
      found = heaviest(found, exportWeight(reexport.target, reexport.name, seen));
    }
    return found;
  }

  function importWeight(module, seen) {
    const key = `${module.file}#<import>`;
    if (symbolWeights.has(key)) return symbolWeights.get(key);
    if (seen.has(key)) return NONE;
    seen.add(key);
    let found = NONE;
    for (const statement of module.run)
      found = heaviest(found, nodeWeight(module, statement, path.relative(root, module.file), seen));
    for (const target of module.wholeImports) found = heaviest(found, exportWeight(target, "*", seen));
    symbolWeights.set(key, found);
    return found;
  }

  /** A test file runs all of itself. */
  function weightOf(file) {
    const module = moduleOf(file);
    const seen = new Set();
    let found = markersOf(module.source, path.relative(root, file));
    found = heaviest(found, importWeight(module, seen));
    for (const name of module.declarations.keys()) found = heaviest(found, localWeight(module, name, seen));
    for (const statement of module.run)
      found = heaviest(found, nodeWeight(module, statement, path.relative(root, file), seen));
    return { weight: found.weight, name: WEIGHTS[found.weight], why: found.why };
  }

  return weightOf;
}

/**
 * A string that holds a call (`name(`) is code written as text (a fixture of this module's test), not a call:
 * blanked before the markers read. A program's name ("redis-server") or a message stays.
 */
function withoutCodeInStrings(text) {
  return text.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, (literal) =>
    /\w\(/.test(literal) ? '""' : literal,
  );
}

function declaredNames(statement) {
  if (
    (ts.isFunctionDeclaration(statement) ||
      ts.isClassDeclaration(statement) ||
      ts.isEnumDeclaration(statement)) &&
    statement.name
  )
    return [statement.name.text];
  if (ts.isVariableStatement(statement))
    return statement.declarationList.declarations.flatMap((declaration) => bindingNames(declaration.name));
  return [];
}

function bindingNames(name) {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((element) =>
    ts.isOmittedExpression(element) ? [] : bindingNames(element.name),
  );
}

function isFile(candidate) {
  try {
    return fs.statSync(candidate).isFile();
  } catch {
    return false;
  }
}

/** Every test file under test/. */
function testFiles(testRoot) {
  const found = [];
  const walk = (directory) => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory() && entry.name !== "node_modules") walk(full);
      else if (entry.isFile() && entry.name.endsWith(".test.ts")) found.push(full);
    }
  };
  walk(testRoot);
  return found.sort();
}

/** Every test file of the project at `root` with its weight. */
function classifyTests(root = PROJECT_ROOT) {
  const weightOf = createReader(root);
  return testFiles(path.join(root, "test")).map((file) => ({ file, ...weightOf(file) }));
}

/** Every .ts and .js file under test/, with what identifies its version. */
function sourcesStamp() {
  const stamp = [];
  const walk = (directory) => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.[jt]s$/.test(entry.name)) {
        const stat = fs.statSync(full);
        stamp.push(`${full}:${stat.size}:${stat.mtimeMs}`);
      }
    }
  };
  walk(path.join(PROJECT_ROOT, "test"));
  walk(path.join(PROJECT_ROOT, "scripts"));
  return stamp.sort().join("\n");
}

/**
 * classifyTests, kept in the temp directory by a hash of test/'s files (names, sizes, times): reading them
 * takes the TypeScript parser about a second, and jest loads its config for every run.
 */
function classifyTestsCached() {
  const hash = crypto
    .createHash("sha256")
    .update(fs.readFileSync(path.join(__dirname, "testWeight.js")))
    .update(sourcesStamp())
    .digest("hex");
  const cacheFile = path.join(os.tmpdir(), `rent-market-test-weights-${hash.slice(0, 16)}.json`);
  try {
    return JSON.parse(fs.readFileSync(cacheFile, "utf8"));
  } catch {
    const classified = classifyTests();
    fs.writeFileSync(cacheFile, JSON.stringify(classified));
    return classified;
  }
}

module.exports = { WEIGHTS, classifyTests, classifyTestsCached };

if (require.main === module) {
  const started = process.hrtime.bigint();
  const classified = classifyTests();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  for (const { file, name, why } of classified)
    console.log(`${name.padEnd(18)} ${path.relative(PROJECT_ROOT, file)}${why ? `  (${why})` : ""}`);
  const counts = WEIGHTS.map((name) => `${classified.filter((entry) => entry.name === name).length} ${name}`);
  console.log(`${classified.length} files: ${counts.join(", ")}; read in ${ms.toFixed(0)} ms`);
}
