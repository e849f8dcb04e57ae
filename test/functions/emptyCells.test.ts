/**
 * An empty cell reaches a custom function as null on Excel on the web and as 0 in desktop Excel (office-js
 * #4702, #5262; test/host/profiles.ts, docs/hosts.md). Where 0 cannot be meant (a field or option name, an id)
 * the functions read it as empty, so `=RENT.PROPERTY(A2, B1)` with B1 empty gives the whole record on every
 * host, and a blank row left in a range of ids or options stays blank.
 */
import { market } from "../../src/functions/marketFunctions";
import { lookup, property } from "../../src/functions/propertyFunctions";
import { boundaries } from "../../src/functions/geoFunctions";
import { HOST_PROFILES, PROFILE_NAMES, supportsSet, type HostProfile } from "../host/profiles";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

let env: SignedInSandbox;
let id: number;
let msaId: number;

beforeAll(async () => {
  env = await startSignedInSandbox("demo-pro");
  id = (
    await env.raw.get<{ data: number[] }>("/properties/lookup", {
      account_id: env.accountId,
      city: "Austin",
      per_page: 1,
    })
  ).data[0] as number;
  const msa = await env.raw.post<{ data: { attributes: { id: number } }[] }>("/geo_boundaries/search", {
    account_id: env.accountId,
    query: "Austin",
    geo_type: "MSA",
    limit: 1,
  });
  msaId = msa.data[0]?.attributes.id as number;
});

afterAll(() => env.close());

afterEach(() => {
  delete (globalThis as { Office?: unknown }).Office;
});

function hostAs(profile: HostProfile): void {
  const isSetSupported = (name: string, version?: string) => supportsSet(profile, name, version);
  Object.assign(globalThis, { Office: { context: { requirements: { isSetSupported } } } });
}

describe.each(PROFILE_NAMES)("with empty cells as %s passes them", (name) => {
  const profile = HOST_PROFILES[name];
  const empty = profile.emptyCellArgument;
  beforeEach(() => hostAs(profile));

  it("reads an empty field cell as no field: the whole record, not an unknown field", async () => {
    const result = await property([[id]], [[empty]], fakeInvocation());
    const flat = JSON.stringify(result);
    expect(flat).not.toContain("Unknown property field");
    expect(flat).toContain(String(id));
  });

  it("gives a blank row for an empty cell in a column of markets", async () => {
    const block = await market([[msaId], [empty]], [["rent_avg_t30"]], undefined, fakeInvocation());
    expect(block[1]).toEqual([""]);
    expect(JSON.stringify(block[0])).toMatch(/\d/);
  });

  it('reads an option row whose value cell is empty as no option: no state, rather than the state "0"', async () => {
    const ids = await lookup(
      [
        ["city", "Austin"],
        ["state", empty],
        ["max_results", 3],
      ],
      fakeInvocation(),
    );
    expect(ids[0]).toEqual(["property_id"]);
    expect(ids.length).toBeGreaterThan(1);
  });

  it("skips a blank row of an options range, and an empty intersecting id", async () => {
    const ids = await lookup(
      [
        ["city", "Austin"],
        [empty, empty],
        ["max_results", 3],
      ],
      fakeInvocation(),
    );
    expect(ids[0]).toEqual(["property_id"]);
    expect(ids.length).toBeGreaterThan(1);
    const found = await boundaries("Austin", [["MSA"]], 3, empty, fakeInvocation());
    expect(found.length).toBeGreaterThan(1);
  });
});
