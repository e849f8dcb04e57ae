import { parseArguments } from "../../sandbox/cli/parseArguments";
import { startSandbox, type RunningSandbox } from "../../sandbox/server";
import { rawService } from "../support/rawService";

describe("a sandbox whose body field names changed (--rename-body-field)", () => {
  let sandbox: RunningSandbox;
  let token: string;

  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      propertyCount: 500,
      renamedBodyFields: parseArguments(["--rename-body-field", "searchGeoBoundaries:query=q"]).options
        .renamedBodyFields,
    });
    token = (await rawService(sandbox.url, "demo-pro", "sandbox-secret-pro")).token;
  });
  afterAll(() => sandbox.close());

  const search = (body: unknown) =>
    fetch(`${sandbox.url}/v1/geo_boundaries/search`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });

  it("refuses the contract's name with the 400 of an unknown field, naming it", async () => {
    const response = await search({ account_id: 100, query: "Austin" });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ message: "Unknown parameter: query" });
  });

  it("serves the new name as the contract's field, and leaves other operations alone", async () => {
    const renamed = await search({ account_id: 100, q: "Austin", geo_type: "MSA" });
    const names = ((await renamed.json()) as { data: { attributes: { name: string } }[] }).data.map(
      (entry) => entry.attributes.name,
    );
    expect(renamed.status).toBe(200);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((name) => /Austin/.test(name))).toBe(true);

    const markets = await fetch(`${sandbox.url}/v1/explore_markets`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ account_id: 100, limit: 1 }),
    });
    expect(markets.status).toBe(200);
  });

  it("refuses a rename it cannot apply, at startup", () => {
    expect(() => parseArguments(["--rename-body-field", "query=q"])).toThrow(
      /<operationId>:<field>=<new name>/,
    );
    expect(() => parseArguments(["--rename-body-field", "listAccounts:page=p"])).toThrow(
      /takes no request body/,
    );
    expect(() => parseArguments(["--rename-body-field", "noSuchOperation:a=b"])).toThrow(
      /No operation noSuchOperation/,
    );
  });
});
