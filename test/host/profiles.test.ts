/**
 * The stand-in plays every Excel the manifest admits, each with the requirement sets Microsoft's tables give it
 * (docs/hosts.md), and no Excel the manifest turns away.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { HOST_PROFILES, PROFILE_NAMES, supportsSet } from "./profiles";

const manifest = readFileSync(path.resolve(__dirname, "../../manifest.xml"), "utf8");
const requiredSets = [...manifest.matchAll(/<Set Name="([^"]+)" MinVersion="([^"]+)"/g)].map(
  ([, name, version]) => ({ name: name!, version: version! }),
);

describe("the host profiles", () => {
  it.each(PROFILE_NAMES)("%s is an Excel the manifest admits", (name) => {
    expect(requiredSets.length).toBeGreaterThan(0);
    for (const set of requiredSets)
      expect([set.name, supportsSet(HOST_PROFILES[name], set.name, set.version)]).toEqual([set.name, true]);
  });

  it("plays Office 2021 (Version 2108) and retail perpetual Office 2024 as Microsoft's tables give them", () => {
    expect(HOST_PROFILES["office2021-windows"].requirementSets).toEqual({
      ExcelApi: "1.14",
      CustomFunctionsRuntime: "1.3",
      SharedRuntime: "1.1",
      OpenBrowserWindowApi: "1.1",
    });
    // Retail perpetual takes Excel's and the shared runtime's sets as Microsoft 365 does, custom functions to 1.3.
    const retail = HOST_PROFILES["retail2024-windows"].requirementSets;
    expect(retail).toMatchObject({ CustomFunctionsRuntime: "1.3", OpenBrowserWindowApi: "1.1" });
    expect(retail.ExcelApi).toBe(HOST_PROFILES["m365-windows"].requirementSets.ExcelApi);
    expect(retail.SharedRuntime).toBe(HOST_PROFILES["m365-windows"].requirementSets.SharedRuntime);
  });
});
