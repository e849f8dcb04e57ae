/**
 * A name means one place: a market, area or property typed by name resolves to the one named exactly so, of a
 * type the function takes, or fails saying which candidates there are and the formula to use; a metro that only
 * names a city in its name ("Dallas-Fort Worth-Arlington, TX" for "Arlington"), a place of another type, or a
 * property whose name merely contains the text is never taken in its stead. Properties also resolve by
 * "Name, City", "Name, ST" and street address. Against the sandbox, whose geography has Arlington in Texas
 * and in Virginia, as the real US does.
 */
import type { PropertyCore } from "../../sandbox/data/properties";
import { market } from "../../src/functions/marketFunctions";
import { properties, property } from "../../src/functions/propertyFunctions";
import { session } from "../../src/session/session";
import { boundaryNamed } from "../support/boundaryNamed";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

let env: SignedInSandbox;

const SEARCH = "/v1/geo_boundaries/search";
const LOOKUP = "/v1/properties/lookup";

const idOf = (name: string, geoType: string) => boundaryNamed(env, name, geoType);

const metric = [["rent_avg_t30"]];
const marketOf = (value: unknown) => market([[value]], metric, undefined, fakeInvocation());
const area = (value: unknown) =>
  properties([[value]], [["property_id"]], [["max_results=5"]], undefined, fakeInvocation());
const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => undefined,
    (error: unknown) => error as { code: string; message: string },
  );

beforeAll(async () => {
  env = await startSignedInSandbox("demo-pro");
});

afterAll(() => env.close());

beforeEach(() => session.requireSignedIn().data.clearCache());

describe("markets and areas by name", () => {
  it('never takes a metro whose name only lists a city: RENT.MARKET("Arlington") names the cities and the metros with their ids', async () => {
    const dallas = await idOf("Dallas-Fort Worth-Arlington, TX", "MSA");
    const washington = await idOf("Washington-Arlington-Alexandria, DC-VA-MD-WV", "MSA");
    const texas = await idOf("Arlington, TX", "CensusPlace");
    const virginia = await idOf("Arlington, VA", "CensusPlace");

    const failure = await failureOf(marketOf("Arlington"));

    expect(failure?.code).toBe("#N/A");
    expect(failure?.message).toMatch(/^No MSA or submarket named "Arlington"\./);
    expect(failure?.message).toContain(`Arlington, TX (town, id ${texas})`);
    expect(failure?.message).toContain(`Arlington, VA (city, id ${virginia})`);
    expect(failure?.message).toContain(
      `"Arlington" is a city inside the metros: Dallas-Fort Worth-Arlington, TX (MSA, id ${dallas}); ` +
        `Washington-Arlington-Alexandria, DC-VA-MD-WV (MSA, id ${washington}).`,
    );
    expect(failure?.message).toContain(`use the id: =RENT.MARKET(${dallas}, …).`);
  });

  it("does not turn Georgetown into the Austin metro: it says Georgetown is a city inside it, with the metro's id", async () => {
    const austin = await idOf("Austin-Round Rock-Georgetown, TX", "MSA");
    const georgetown = await idOf("Georgetown, TX", "CensusPlace");

    const failure = await failureOf(marketOf("Georgetown"));

    expect(failure).toEqual(
      expect.objectContaining({
        code: "#N/A",
        message:
          'No MSA or submarket named "Georgetown". ' +
          `"Georgetown" is another kind of place: Georgetown, TX (town, id ${georgetown}). ` +
          `"Georgetown" is a city inside the metro: Austin-Round Rock-Georgetown, TX (MSA, id ${austin}). ` +
          `For it, use the id: =RENT.MARKET(${austin}, …).`,
      }),
    );
  });

  it("refuses a name places in two states share, listing both with the formula; the state picks one", async () => {
    const texas = await idOf("Arlington, TX", "CensusPlace");
    const virginia = await idOf("Arlington, VA", "CensusPlace");

    const failure = await failureOf(area("Arlington"));

    expect(failure).toEqual(
      expect.objectContaining({
        code: "#VALUE!",
        message:
          `area: ambiguous: 2 places named "Arlington": Arlington, TX (town, id ${texas}); ` +
          `Arlington, VA (city, id ${virginia}). Use the id: =RENT.PROPERTIES(${texas}, …).`,
      }),
    );
    await expect(area("Arlington, VA")).resolves.toEqual(await area(virginia));
    await expect(area("arlington tx")).resolves.toEqual(await area(texas));
    expect(await area(virginia)).not.toEqual(await area(texas));
  });

  it("takes a metro by its whole name or its principal city, for one search the first time and none after", async () => {
    const dallas = await idOf("Dallas-Fort Worth-Arlington, TX", "MSA");
    const byId = await marketOf(dallas);
    const searches = env.sandbox.counters.get(SEARCH);

    await expect(marketOf("Arlington, VA")).rejects.toMatchObject({ code: "#N/A" });
    expect(env.sandbox.counters.get(SEARCH) - searches).toBe(1);
    await expect(marketOf("Arlington, VA")).rejects.toMatchObject({ code: "#N/A" });
    expect(env.sandbox.counters.get(SEARCH) - searches).toBe(1);

    await expect(marketOf("Dallas")).resolves.toEqual(byId);
    await expect(marketOf("dallas, tx")).resolves.toEqual(byId);
    await expect(marketOf("Dallas-Fort Worth-Arlington, TX")).resolves.toEqual(byId);
    const afterNames = env.sandbox.counters.get(SEARCH);
    await expect(marketOf("Dallas")).resolves.toEqual(byId);
    expect(env.sandbox.counters.get(SEARCH)).toBe(afterNames);
  });
});

describe("properties by name, city, state and address", () => {
  const dataset = () => env.sandbox.context.dataset();
  const containing = (text: string, field: "name" | "address", where: Partial<PropertyCore> = {}) =>
    dataset().properties.filter(
      (candidate) =>
        candidate[field].toLowerCase().includes(text.toLowerCase()) &&
        (where.city === undefined || candidate.city === where.city) &&
        (where.state === undefined || candidate.state === where.state),
    );
  /** A name that properties in several cities have, one of them the only one of that name in its city and state. */
  function sharedAcrossCities(): PropertyCore {
    const found = dataset().properties.find((candidate) => {
      const named = dataset().properties.filter((other) => other.name === candidate.name);
      const cities = new Set(named.map((other) => other.city));
      const states = new Set(named.map((other) => other.state));
      return (
        cities.size === named.length &&
        states.size === named.length &&
        named.length > 1 &&
        containing(candidate.name, "name", { city: candidate.city }).length <= 10 &&
        containing(candidate.name, "name", { state: candidate.state }).length <= 10
      );
    });
    if (!found) throw new Error("the sandbox has no name shared across cities and states");
    return found;
  }
  const fields = [["property_id", "property_name", "city", "state"]];
  const read = (value: unknown) => property([[value]], fields, fakeInvocation());

  it('resolves "Name, City" and "Name, ST" to the one of that name there, in any case, for one lookup and none after', async () => {
    const wanted = sharedAcrossCities();
    const byId = await read(wanted.id);
    const lookups = env.sandbox.counters.get(LOOKUP);

    await expect(read(`${wanted.name.toUpperCase()}, ${wanted.city}`)).resolves.toEqual(byId);
    expect(env.sandbox.counters.get(LOOKUP) - lookups).toBe(1);
    await expect(read(`${wanted.name.toUpperCase()}, ${wanted.city}`)).resolves.toEqual(byId);
    expect(env.sandbox.counters.get(LOOKUP) - lookups).toBe(1);
    await expect(read(`${wanted.name}, ${wanted.state.toLowerCase()}`)).resolves.toEqual(byId);
    await expect(read(`${wanted.name}, ${wanted.city}, ${wanted.state}`)).resolves.toEqual(byId);
    const [[nowhere]] = (await read(`${wanted.name}, Zzyzx`)) as unknown[][] as [[unknown]];
    expect(nowhere).toMatchObject({
      code: "#N/A",
      message: expect.stringMatching(new RegExp(`^No property named "${wanted.name}" in Zzyzx\\.`)),
    });
  });

  it("resolves a street address, alone or with its city (RENT.PROPERTY takes an address)", async () => {
    const wanted = dataset().properties.find(
      (candidate) =>
        containing(candidate.address, "address").length === 1 &&
        containing(candidate.address, "address", { city: candidate.city }).length === 1,
    ) as PropertyCore;
    const byId = await read(wanted.id);

    await expect(read(wanted.address)).resolves.toEqual(byId);
    await expect(read(`${wanted.address.toLowerCase()}, ${wanted.city}`)).resolves.toEqual(byId);
  });

  it("never takes a property whose name only contains the text: #N/A lists it with the formula", async () => {
    // "The Avalon Madison Terrace" typed without its "The", and no other name holds the rest.
    const candidate = dataset().properties.find(
      (each) => each.name.startsWith("The ") && containing(each.name.slice(4), "name").length === 1,
    );
    if (!candidate) throw new Error("the sandbox has no name only one property holds without its The");
    const part = candidate.name.slice(4);

    const [[failure]] = (await read(part)) as unknown[][] as [[unknown]];

    expect(failure).toEqual(
      expect.objectContaining({
        code: "#N/A",
        message:
          `No property named "${part}". 1 contains it: ${candidate.id} ${candidate.name} ` +
          `(${candidate.address}, ${candidate.city}, ${candidate.state}). ` +
          `Use the id: =RENT.PROPERTY(${candidate.id}, …).`,
      }),
    );
  });
});
