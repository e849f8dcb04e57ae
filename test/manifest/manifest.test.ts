/**
 * The online manifest validator cannot be reached from here, and no XSD covers <Runtimes>, so this test
 * checks the structure that Excel relies on: resource ids, the shared-runtime wiring, URLs, the namespace,
 * the icons, and that the built functions.json lists exactly the functions in the code.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { SERVER_BASE_URL, SERVER_BUILD, addInBuild } from "../host/addinBuild";
import { bodyDefaults, bodyRange, parameterDefault } from "../../src/api/requestFacts";
import { forecastIntervalValues } from "../../src/api/schema";

const root = path.resolve(__dirname, "../..");
const manifestXml = readFileSync(path.join(root, "manifest.xml"), "utf8");
const PRODUCTION_BASE = SERVER_BASE_URL;

type Node = Record<string, unknown>;
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_", removeNSPrefix: true });
const manifest = parser.parse(manifestXml) as Node;

/** Every element named `name` anywhere below `node`, in document order. */
function findAll(node: unknown, name: string): Node[] {
  if (Array.isArray(node)) return node.flatMap((item) => findAll(item, name));
  if (!node || typeof node !== "object") return [];
  return Object.entries(node as Node).flatMap(([key, value]) => {
    const here =
      key === name ? (Array.isArray(value) ? value : [value]).filter((v) => typeof v === "object") : [];
    return [...(here as Node[]), ...findAll(value, name)];
  });
}

function only(node: unknown, name: string): Node {
  const found = findAll(node, name);
  expect(found).toHaveLength(1);
  return found[0] as Node;
}

const resources = only(manifest, "Resources");
const resourceValues = new Map<string, string>();
for (const group of ["Images", "Urls", "ShortStrings", "LongStrings"]) {
  for (const entry of findAll(
    only(resources, group),
    group === "Images" ? "Image" : group === "Urls" ? "Url" : "String",
  )) {
    const id = entry["@_id"] as string;
    expect(resourceValues.has(id)).toBe(false);
    resourceValues.set(id, entry["@_DefaultValue"] as string);
  }
}

function resolve(resid: unknown): string {
  expect(typeof resid).toBe("string");
  const value = resourceValues.get(resid as string);
  if (value === undefined) throw new Error(`resid "${String(resid)}" does not resolve`);
  return value;
}

function allResids(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(allResids);
  if (!node || typeof node !== "object") return [];
  return Object.entries(node as Node).flatMap(([key, value]) =>
    key === "@_resid" ? [value as string] : allResids(value),
  );
}

function allUrls(xml: string): string[] {
  return [...xml.matchAll(/(?:DefaultValue="|<AppDomain>)(https?:\/\/[^"<]+)/g)].map((m) => m[1] as string);
}

function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString("ascii")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The ids of the @customfunction tags in the functions source, read independently of the build's generator. */
function customFunctionIdsInCode(): string[] {
  const dir = path.join(root, "src/functions");
  return readdirSync(dir)
    .filter((file) => file.endsWith(".ts"))
    .flatMap((file) => [
      ...readFileSync(path.join(dir, file), "utf8").matchAll(/@customfunction\s+([A-Z0-9_.]+)/g),
    ])
    .map((match) => match[1] as string)
    .sort();
}

describe("manifest.xml", () => {
  it("is well-formed XML for an Excel task pane add-in", () => {
    expect(XMLValidator.validate(manifestXml)).toBe(true);
    const app = only(manifest, "OfficeApp");
    expect(app["@_type"]).toBe("TaskPaneApp");
    expect(findAll(app["Hosts"], "Host").map((host) => host["@_Name"])).toEqual(["Workbook"]);
    expect(app["Id"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it("resolves every resid to a resource", () => {
    const resids = allResids(manifest);
    expect(resids.length).toBeGreaterThan(10);
    for (const resid of resids) expect(resourceValues.has(resid)).toBe(true);
  });

  it("wires one long-lived shared runtime: Runtime, Page, FunctionFile and the pane all use one page", () => {
    const sets = findAll(only(manifest, "Requirements"), "Set");
    expect(sets).toContainEqual(
      expect.objectContaining({ "@_Name": "SharedRuntime", "@_MinVersion": "1.1" }),
    );
    // Freezing spilled formulas reads Range.getSpillingToRangeOrNullObject (ExcelApi 1.12).
    expect(sets).toContainEqual(expect.objectContaining({ "@_Name": "ExcelApi", "@_MinVersion": "1.12" }));

    const runtime = only(only(manifest, "Runtimes"), "Runtime");
    expect(runtime["@_lifetime"]).toBe("long");
    const runtimePage = resolve(runtime["@_resid"]);

    const customFunctions = findAll(manifest, "ExtensionPoint").filter(
      (ep) => ep["@_type"] === "CustomFunctions",
    );
    expect(customFunctions).toHaveLength(1);
    const cf = customFunctions[0] as Node;
    expect(resolve(only(only(cf, "Page"), "SourceLocation")["@_resid"])).toBe(runtimePage);
    expect(resolve(only(findAll(manifest, "DesktopFormFactor")[0], "FunctionFile")["@_resid"])).toBe(
      runtimePage,
    );
    const paneActions = findAll(manifest, "Action").filter((action) => action["@_type"] === "ShowTaskpane");
    expect(paneActions.length).toBeGreaterThan(0);
    for (const action of paneActions)
      expect(resolve(only(action, "SourceLocation")["@_resid"])).toBe(runtimePage);
    expect(only(only(manifest, "DefaultSettings"), "SourceLocation")["@_DefaultValue"]).toBe(runtimePage);

    // The script and metadata are served beside the runtime page, which loads the script itself.
    const script = resolve(only(only(cf, "Script"), "SourceLocation")["@_resid"]);
    const metadata = resolve(only(only(cf, "Metadata"), "SourceLocation")["@_resid"]);
    expect(new URL(script).origin).toBe(new URL(runtimePage).origin);
    expect(script).toMatch(/\/functions\.js$/);
    expect(metadata).toMatch(/\/functions\.json$/);
  });

  it("admits only an Excel that has custom functions (CustomFunctionsRuntime 1.3, Marketplace policy 1120.3)", () => {
    // Builds that report ExcelApi 1.12 and SharedRuntime 1.1 but run no custom functions (retail perpetual ones,
    // docs/hosts.md) would otherwise be offered an add-in whose formulas show #NAME?.
    const sets = findAll(only(manifest, "Requirements"), "Set");
    expect(sets).toContainEqual(
      expect.objectContaining({ "@_Name": "CustomFunctionsRuntime", "@_MinVersion": "1.3" }),
    );
  });

  it("points the support and learn-more links at the support page, not at the pane", () => {
    const support = only(manifest, "SupportUrl")["@_DefaultValue"];
    const learnMore = resolve(only(manifest, "LearnMoreUrl")["@_resid"]);
    const pane = resolve(only(only(manifest, "Runtimes"), "Runtime")["@_resid"]);
    expect(support).toMatch(/\/support\.html$/);
    expect(learnMore).toBe(support);
    expect(support).not.toBe(pane);
  });

  it("uses the RENT namespace", () => {
    const cf = findAll(manifest, "ExtensionPoint").find((ep) => ep["@_type"] === "CustomFunctions");
    expect(resolve(only(cf, "Namespace")["@_resid"])).toBe("RENT");
  });

  it("points every URL at https on one host", () => {
    const urls = allUrls(manifestXml);
    expect(urls.length).toBeGreaterThan(8);
    const hosts = new Set(urls.map((url) => new URL(url).host));
    expect(hosts.size).toBe(1);
    for (const url of urls) expect(new URL(url).protocol).toBe("https:");
  });

  it("has a ribbon button that opens the pane, with real icons of the declared sizes", () => {
    const buttons = findAll(manifest, "Control").filter((control) => control["@_type"] === "Button");
    expect(buttons.length).toBeGreaterThan(0);
    for (const image of findAll(manifest, "Image").filter((node) => node["@_size"] !== undefined)) {
      const url = resolve(image["@_resid"]);
      const size = Number(image["@_size"]);
      const file = path.join(root, new URL(url).pathname);
      expect(pngSize(file)).toEqual({ width: size, height: size });
    }
    for (const size of [16, 32, 64, 80]) {
      const icon = readFileSync(path.join(root, `assets/icon-${size}.png`));
      expect(icon.length).toBeGreaterThan(150); // a drawing compresses to more than a blank square does
    }
  });
});

describe("the production build", () => {
  let outDir: string;

  // The build the preview uses, made by webpack's CLI in a process of its own and kept by a hash of its
  // sources (an unchanged tree is not built again); webpack failing fails it.
  beforeAll(async () => {
    outDir = await addInBuild(SERVER_BUILD);
  }, 300_000);

  it("writes the manifest with every localhost URL rewritten to the production base URL", () => {
    const built = readFileSync(path.join(outDir, "manifest.xml"), "utf8");
    expect(built).not.toContain("localhost");
    const urls = allUrls(built);
    expect(urls).toHaveLength(allUrls(manifestXml).length);
    for (const url of urls) expect(url.startsWith(PRODUCTION_BASE)).toBe(true);
  });

  it("lists exactly the functions in the code in functions.json, each described", () => {
    const metadata = JSON.parse(readFileSync(path.join(outDir, "functions.json"), "utf8")) as {
      functions: { id: string; description?: string; parameters: { name: string; description?: string }[] }[];
    };
    const ids = metadata.functions.map((fn) => fn.id).sort();
    expect(ids).toEqual(customFunctionIdsInCode());
    expect(ids).toContain("ACCOUNTS");
    for (const fn of metadata.functions) {
      expect(fn.description).toBeTruthy();
      for (const parameter of fn.parameters) expect(parameter.description).toBeTruthy();
    }
  });

  it("writes the help text Excel shows with the contract's facts in place of every placeholder", () => {
    const text = readFileSync(path.join(outDir, "functions.json"), "utf8");
    expect(text).not.toContain("${");
    const metadata = JSON.parse(text) as {
      functions: { id: string; parameters: { name: string; description?: string }[] }[];
    };
    const help = (fn: string, parameter: string) =>
      metadata.functions
        .find((candidate) => candidate.id === fn)
        ?.parameters.find((p) => p.name === parameter)?.description ?? "";
    const interval = help("FORECAST", "interval");
    const defaultInterval = bodyDefaults("getPropertyForecasts").interval;
    expect(interval).toContain(`${defaultInterval} (default)`);
    for (const value of forecastIntervalValues) expect(interval).toContain(value);
    const radius = parameterDefault("lookupProperties", "radius");
    expect(help("LOOKUP", "options")).toContain(`radius is in miles around them (default ${String(radius)})`);
    const limit = bodyRange("searchGeoBoundaries", "limit");
    expect(help("BOUNDARIES", "limit")).toContain(`${limit.minimum} to ${limit.maximum}`);
  });

  it("asks Excel for every function's calling cell (the pane's as-of), a streaming one's too", () => {
    const metadata = JSON.parse(readFileSync(path.join(outDir, "functions.json"), "utf8")) as {
      functions: { id: string; options?: Record<string, boolean> }[];
    };
    const withoutAddress = metadata.functions.filter((fn) =>
      fn.options?.stream ? fn.options.requiresStreamAddress !== true : fn.options?.requiresAddress !== true,
    );
    expect(withoutAddress.map((fn) => fn.id)).toEqual([]);
    expect(metadata.functions.find((fn) => fn.id === "HISTORY")?.options).toEqual({
      stream: true,
      requiresStreamAddress: true,
    });
  });

  it("ships the support page the manifest links: the troubleshooting guide, no script", () => {
    const page = readFileSync(path.join(outDir, "support.html"), "utf8");
    expect(page).toContain("<title>Rent Market: troubleshooting</title>");
    expect(page).toContain("Not signed in: open the Rent Market pane");
    expect(page).toContain("script-src 'none'");
  });

  it("links every function to its own section of help.html, at the production URL", () => {
    const metadata = JSON.parse(readFileSync(path.join(outDir, "functions.json"), "utf8")) as {
      functions: { id: string; helpUrl?: string }[];
    };
    const help = readFileSync(path.join(outDir, "help.html"), "utf8");
    for (const fn of metadata.functions) {
      expect(fn.helpUrl).toBe(`${PRODUCTION_BASE}help.html#rent-${fn.id.toLowerCase()}`);
      expect(help).toContain(`id=rent-${fn.id.toLowerCase()}>`);
    }
  });

  it("documents every function in docs/functions.md with the signature Excel shows", () => {
    const metadata = JSON.parse(readFileSync(path.join(outDir, "functions.json"), "utf8")) as {
      functions: { id: string; parameters: { name: string; optional?: boolean }[] }[];
    };
    const reference = readFileSync(path.join(root, "docs", "functions.md"), "utf8");
    const sections = new Map(
      reference
        .split(/^## /m)
        .slice(1)
        .map((section) => [section.slice(0, section.indexOf("\n")).trim(), section] as const),
    );
    expect([...sections.keys()].filter((title) => title.startsWith("RENT.")).sort()).toEqual(
      metadata.functions.map((fn) => `RENT.${fn.id}`).sort(),
    );
    const mismatches: string[] = [];
    for (const fn of metadata.functions) {
      const signature = `=RENT.${fn.id}(`;
      const section = sections.get(`RENT.${fn.id}`) ?? "";
      const start = section.indexOf(signature);
      expect(start).toBeGreaterThanOrEqual(0);
      const written = section.slice(start + signature.length, section.indexOf(")`", start));
      const documented = written
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== "");
      const expected = fn.parameters.map((parameter) =>
        parameter.optional ? `[${parameter.name}]` : parameter.name,
      );
      if (documented.join(", ") !== expected.join(", "))
        mismatches.push(
          `${signature}${documented.join(", ")}) should be ${signature}${expected.join(", ")})`,
        );
    }
    expect(mismatches).toEqual([]);
  });

  it("defaults the pane to the team relay under its own origin, and lets the page talk to that origin only", () => {
    const page = readFileSync(path.join(outDir, "taskpane.html"), "utf8");
    expect(/connect-src ([^;"]*)/.exec(page)?.[1]?.trim()).toBe("'self'");
    const scripts = readdirSync(outDir)
      .filter((file) => file.endsWith(".js"))
      .map((file) => readFileSync(path.join(outDir, file), "utf8"))
      .join("\n");
    expect(scripts).toContain(`"${PRODUCTION_BASE}api"`);
  });

  it("builds one runtime page that loads the pane and the functions bundle", () => {
    const page = readFileSync(path.join(outDir, "taskpane.html"), "utf8");
    for (const bundle of ["runtime.js", "shared.js", "taskpane.js", "functions.js"]) {
      expect(page).toContain(`src=${bundle}`);
    }
    expect(readdirSync(path.join(outDir, "assets")).sort()).toEqual([
      "icon-16.png",
      "icon-32.png",
      "icon-64.png",
      "icon-80.png",
    ]);
  });
});
