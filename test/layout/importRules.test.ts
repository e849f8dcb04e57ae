/**
 * The import rules the folders' READMEs state, checked against the code: each `src/` folder's README ends with a
 * "May import:" paragraph naming the parts of `src/` its files may import (a folder, `src/tables/`, or one file,
 * `src/tables/exportPercents.ts`); nothing that ships imports the relay, the sandbox, the tests or the scripts; the folders that know nothing of Excel name
 * none of Office.js's globals. (That the relay's production code reaches nothing of `sandbox/`, even through
 * `src/`, is test/relay/productionImports.test.ts's.)
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(__dirname, "..", "..");

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

/** Every relative import of a file (static, dynamic, `import type`, re-export), as a path from the root. */
function relativeImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) =>
      path
        .relative(root, path.resolve(path.dirname(file), specifier))
        .split(path.sep)
        .join("/"),
    );
}

const srcFolders = readdirSync(path.join(root, "src")).filter((name) =>
  statSync(path.join(root, "src", name)).isDirectory(),
);

/** The "May import:" paragraph of a folder's README. */
function mayImportParagraph(folder: string): string | undefined {
  const readme = path.join(root, "src", folder, "README.md");
  if (!existsSync(readme)) return undefined;
  const text = readFileSync(readme, "utf8");
  const start = text.indexOf("May import:");
  if (start < 0) return undefined;
  const end = text.indexOf("\n\n", start);
  return text.slice(start, end < 0 ? undefined : end);
}

/** What a paragraph allows: `src/x/` allows a folder, `src/x/y.ts` one file; "every other folder" allows all. */
function allowedTargets(paragraph: string): (target: string) => boolean {
  if (paragraph.includes("every other folder of `src/`")) return (target) => target.startsWith("src/");
  const named = [...paragraph.matchAll(/`(src\/[^`]+)`/g)].map((match) => match[1]!);
  return (target) =>
    named.some((name) =>
      name.endsWith("/") ? target.startsWith(name) : target === name.replace(/\.tsx?$/, ""),
    );
}

describe("the import rules the READMEs state", () => {
  it("gives every folder of src/ a README that says what it may import", () => {
    expect(srcFolders.filter((folder) => mayImportParagraph(folder) === undefined)).toEqual([]);
  });

  it.each(srcFolders)("src/%s imports from src/ only what its README allows", (folder) => {
    const allowed = allowedTargets(mayImportParagraph(folder) ?? "");
    const own = `src/${folder}/`;
    const breaches = sourceFiles(path.join(root, "src", folder)).flatMap((file) =>
      relativeImports(file)
        .filter((target) => target.startsWith("src/") && !target.startsWith(own) && !allowed(target))
        .map((target) => `${path.relative(root, file)} imports ${target}`),
    );
    expect(breaches).toEqual([]);
  });

  it("keeps what ships to Excel free of the relay, the sandbox, the tests and the scripts", () => {
    const breaches = sourceFiles(path.join(root, "src")).flatMap((file) =>
      relativeImports(file)
        .filter((target) => !target.startsWith("src/"))
        .map((target) => `${path.relative(root, file)} imports ${target}`),
    );
    expect(breaches).toEqual([]);
  });

  it("keeps Office.js out of the folders whose READMEs say they know nothing of Excel", () => {
    const officeGlobals = new Set(["Excel", "Office", "CustomFunctions", "OfficeRuntime"]);
    const breaches = ["api", "data", "session", "formats", "tables"].flatMap((folder) =>
      sourceFiles(path.join(root, "src", folder)).flatMap((file) => {
        const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
        const found: string[] = [];
        const visit = (node: ts.Node): void => {
          if (ts.isIdentifier(node) && officeGlobals.has(node.text))
            found.push(`${path.relative(root, file)}: ${node.text}`);
          ts.forEachChild(node, visit);
        };
        visit(source);
        return found;
      }),
    );
    expect(breaches).toEqual([]);
  });
});
