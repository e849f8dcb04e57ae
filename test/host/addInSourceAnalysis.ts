/**
 * Which members of the Office, Excel and CustomFunctions APIs the add-in's source touches, found with the
 * TypeScript checker against the real `@types/office-js` and `@types/custom-functions-runtime`: every
 * property access whose declaration lives in those packages, by its qualified name ("Excel.Range.values").
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import ts from "typescript";
import { filesUnder, inputsHash, keepAndSweep } from "../support/keptByInputs";

const OFFICE_TYPE_PACKAGES = /[\\/]@types[\\/](office-js|custom-functions-runtime|office-runtime)[\\/]/;

function typeScriptFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

export interface AddInSourceAnalysis {
  /** Qualified names of the Office, Excel and CustomFunctions members the source reads, writes or calls. */
  members: Set<string>;
  /** Type errors in the source, checked against the real Office typings. */
  errors: string[];
  /** The file that declares `Excel.Range` for the checker: proof the real @types/office-js was used. */
  excelTypesFile: string | undefined;
}

export function analyseAddInSource(sourceDirectory: string, tsconfigPath: string): AddInSourceAnalysis {
  const config = ts.getParsedCommandLineOfConfigFile(
    tsconfigPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error(`Cannot read ${tsconfigPath}`);
  const files = typeScriptFiles(sourceDirectory);
  const program = ts.createProgram(files, config.options);
  const checker = program.getTypeChecker();
  const used = new Set<string>();

  const record = (symbol: ts.Symbol | undefined, receiver: ts.Node): void => {
    if (!symbol) return;
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declarations = target.declarations ?? [];
    const declaredInOffice = declarations.some((declaration) =>
      OFFICE_TYPE_PACKAGES.test(declaration.getSourceFile().fileName),
    );
    if (declaredInOffice) used.add(memberName(target, declarations[0], checker.getTypeAtLocation(receiver)));
  };

  /**
   * Named after the type it is read on, so inherited members count for the object that must provide them
   * (`sheet.isNullObject` is "Excel.Worksheet.isNullObject", not the base class's). Members of anonymous
   * types are named after the function that declares the type ("Office.onReady().host").
   */
  const memberName = (
    member: ts.Symbol,
    declaration: ts.Declaration | undefined,
    receiver: ts.Type,
  ): string => {
    const owner = receiver.getSymbol();
    if (owner && owner.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface)) {
      return `${checker.getFullyQualifiedName(owner)}.${member.name}`;
    }
    const qualified = checker.getFullyQualifiedName(member);
    if (!qualified.startsWith("__")) return qualified;
    for (let node: ts.Node | undefined = declaration; node; node = node.parent) {
      if (ts.isFunctionDeclaration(node) || ts.isMethodSignature(node) || ts.isMethodDeclaration(node)) {
        const declared = node.name && checker.getSymbolAtLocation(node.name);
        if (declared) return `${checker.getFullyQualifiedName(declared)}().${member.name}`;
      }
    }
    return qualified;
  };

  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node)) {
      record(checker.getSymbolAtLocation(node.name), node.expression);
    } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      // `const { ErrorCode } = CustomFunctions;` reads a member too.
      const declaration = node.parent.parent;
      if (ts.isVariableDeclaration(declaration) && declaration.initializer) {
        const key = node.propertyName ?? node.name;
        const member = ts.isIdentifier(key)
          ? checker.getTypeAtLocation(declaration.initializer).getProperty(key.text)
          : undefined;
        record(member, declaration.initializer);
      }
    }
    ts.forEachChild(node, visit);
  };
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (source) visit(source);
  }
  const errors = ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error)
    .map((diagnostic) => {
      const where = diagnostic.file ? `${diagnostic.file.fileName}: ` : "";
      return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    });
  const excel = checker.resolveName("Excel", undefined, ts.SymbolFlags.Namespace, false);
  const range = excel && checker.getExportsOfModule(excel).find((symbol) => symbol.name === "Range");
  const excelTypesFile = range?.declarations?.[0]?.getSourceFile().fileName;
  return { members: used, errors, excelTypesFile };
}

/**
 * Everything the analysis reads: every file under the source directory, the compiler options, the installed
 * packages (the Office typings and TypeScript, by the lock file), the compiler's version and this module.
 */
function analysisInputsHash(sourceDirectory: string, tsconfigPath: string): string {
  const lockFile = join(dirname(tsconfigPath), "package-lock.json");
  return inputsHash(sourceDirectory, [__filename, tsconfigPath, lockFile, ...filesUnder(sourceDirectory)], {
    typescript: ts.version,
  });
}

interface StoredAnalysis {
  members: string[];
  errors: string[];
  excelTypesFile: string | undefined;
}

/**
 * The analysis of the sources as they are, made once per state of its inputs: the checker over the add-in
 * and the 9 MB Office typings costs about ten seconds of CPU, and its answer is a function of the files
 * `analysisInputsHash` reads, so it is kept under that hash (like the add-in's build, test/host/addinBuild.ts) and any
 * change to a source file, the compiler options, the installed packages or this module makes a new one.
 */
export function currentAddInSourceAnalysis(
  sourceDirectory: string,
  tsconfigPath: string,
): AddInSourceAnalysis {
  const base = join(tmpdir(), "rent-market-source-analyses");
  mkdirSync(base, { recursive: true });
  const file = join(base, `${analysisInputsHash(sourceDirectory, tsconfigPath)}.json`);
  let stored: StoredAnalysis;
  try {
    stored = JSON.parse(readFileSync(file, "utf8")) as StoredAnalysis;
  } catch {
    const analysis = analyseAddInSource(sourceDirectory, tsconfigPath);
    stored = { ...analysis, members: [...analysis.members] };
    // Written aside and renamed: a worker reading it at the same time sees the whole file or none.
    const staging = `${file}.${process.pid}`;
    writeFileSync(staging, JSON.stringify(stored));
    renameSync(staging, file);
  }
  // Marks this analysis as in use, then drops analyses of other inputs unused for a day.
  keepAndSweep(base, file);
  return { ...stored, members: new Set(stored.members) };
}
