/**
 * The stand-in is honest only if it plays exactly the part of Office the add-in uses: a member the add-in
 * starts to use must be added to the stand-in (else the preview and the e2e tests would fail in confusing
 * ways), and a member the add-in stops using must go (else the stand-in grows untested pretend-Excel).
 * The add-in's use is read from its source with the TypeScript checker, against the real @types/office-js,
 * and from its built bundles.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { currentAddInSourceAnalysis } from "./addInSourceAnalysis";
import { addInBuild } from "./addinBuild";
import {
  CustomFunctionsError,
  StandInInvocation,
  StandInInvocationBase,
  StandInStreamingInvocation,
  customFunctionsNamespace,
} from "./standin/customFunctions";
import { EXCEL_STAND_INS, excelNamespace } from "./standin/excelApi";
import { HOST_PROFILES } from "./profiles";
import type { HostBridge } from "./standin/hostBridge";
import {
  StandInContext,
  StandInUI,
  StandInOfficeTheme,
  StandInReadyInfo,
  StandInRequirementSetSupport,
  officeNamespace,
} from "./standin/office";

const ROOT = join(__dirname, "..", "..");

const OFFICE_GLOBAL_ACCESS =
  /\b(?:Office|Excel|CustomFunctions|OfficeRuntime|OfficeExtension)\.[A-Za-z_$][\w$]*/g;

/**
 * Namespace members the built bundles reach (minifiers keep global names): catches calls the build adds,
 * such as the `CustomFunctions.associate` calls custom-functions-metadata-plugin appends, and any a
 * dependency makes.
 */
function namespaceMembersInBuild(buildDir: string): string[] {
  const bundles = readdirSync(buildDir).filter((name) => name.endsWith(".js"));
  const found = bundles.flatMap((name) =>
    [...readFileSync(join(buildDir, name), "utf8").matchAll(OFFICE_GLOBAL_ACCESS)].map((match) => match[0]),
  );
  return [...new Set(found)];
}

type StandInClass = { officeName: string; prototype: object };

function classMembers(standIn: StandInClass): string[] {
  return Object.getOwnPropertyNames(standIn.prototype)
    .filter((name) => name !== "constructor")
    .map((name) => `${standIn.officeName}.${name}`);
}

/** Members of a namespace object, and of the enum-like plain objects in it ("Excel.CalculationType.full"). */
function namespaceMembers(prefix: string, namespace: object): string[] {
  return Object.entries(namespace).flatMap(([key, value]: [string, unknown]) => {
    const name = `${prefix}.${key}`;
    const isPlainObject =
      typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
    return isPlainObject ? [name, ...namespaceMembers(name, value)] : [name];
  });
}

function standInMembers(): string[] {
  const host: HostBridge = {
    workbook: undefined as never,
    profile: HOST_PROFILES["m365-windows"],
    outside: { browserWindows: [], windowOpens: [], blobDownloads: [] },
    registerFunction: () => undefined,
  };
  const classes: StandInClass[] = [
    ...EXCEL_STAND_INS,
    StandInInvocationBase,
    StandInInvocation,
    StandInStreamingInvocation,
    StandInReadyInfo,
    StandInContext,
    StandInRequirementSetSupport,
    StandInOfficeTheme,
    StandInUI,
    CustomFunctionsError,
  ];
  return [
    ...namespaceMembers("Office", officeNamespace(host)),
    ...namespaceMembers("Excel", excelNamespace(host)),
    ...namespaceMembers("CustomFunctions", customFunctionsNamespace(host)),
    ...classes.flatMap(classMembers),
  ];
}

const analysis = currentAddInSourceAnalysis(join(ROOT, "src"), join(ROOT, "tsconfig.json"));
let builtMembers: string[];

beforeAll(async () => {
  builtMembers = namespaceMembersInBuild(await addInBuild());
}, 180_000);

describe("the Office host stand-in", () => {
  it("checks the add-in against the real Office typings, which it compiles with", () => {
    expect(analysis.excelTypesFile).toMatch(/node_modules[\\/]@types[\\/]office-js[\\/]index\.d\.ts$/);
    expect(analysis.errors).toEqual([]);
  });

  it("implements exactly the Office, Excel and CustomFunctions members the add-in uses", () => {
    const used = [...new Set([...analysis.members, ...builtMembers])].sort();
    const implemented = standInMembers().sort();
    expect(used.length).toBeGreaterThan(40);
    expect(builtMembers).toContain("CustomFunctions.associate");
    expect({ missingFromTheStandIn: used.filter((member) => !implemented.includes(member)) }).toEqual({
      missingFromTheStandIn: [],
    });
    expect({ unusedByTheAddIn: implemented.filter((member) => !used.includes(member)) }).toEqual({
      unusedByTheAddIn: [],
    });
  });
});
