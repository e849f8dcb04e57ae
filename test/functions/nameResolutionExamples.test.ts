/**
 * The same rule for names against the sandbox's "examples" variant, which answers as the vendor's own examples
 * do (api-notes third pass): a metro is "Raleigh-Cary, NC Metro Area" and a city a CensusPlace ranked after
 * it. The metro is still known by its principal city and its whole name; a city of its name is not the metro.
 */
import { market } from "../../src/functions/marketFunctions";
import { properties } from "../../src/functions/propertyFunctions";
import { boundaryNamed } from "../support/boundaryNamed";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

let env: SignedInSandbox;

const idOf = (name: string, geoType: string) => boundaryNamed(env, name, geoType);

const marketOf = (value: unknown) => market([[value]], [["rent_avg_t30"]], undefined, fakeInvocation());

beforeAll(async () => {
  env = await startSignedInSandbox("demo-pro", { variant: "examples" });
});

afterAll(() => env.close());

it('takes "Raleigh" and "Raleigh-Cary, NC Metro Area" as the metro, and refuses "Cary" naming the metro\'s id', async () => {
  const raleigh = await idOf("Raleigh-Cary, NC Metro Area", "MSA");
  const cary = await idOf("Cary, NC", "CensusPlace");
  const byId = await marketOf(raleigh);

  await expect(marketOf("Raleigh")).resolves.toEqual(byId);
  await expect(marketOf("Raleigh, NC")).resolves.toEqual(byId);
  await expect(marketOf("Raleigh-Cary, NC Metro Area")).resolves.toEqual(byId);
  await expect(marketOf("Cary")).rejects.toMatchObject({
    code: "#N/A",
    message:
      'No MSA or submarket named "Cary". ' +
      `"Cary" is another kind of place: Cary, NC (city, id ${cary}). ` +
      `"Cary" is a city inside the metro: Raleigh-Cary, NC Metro Area (MSA, id ${raleigh}). ` +
      `For it, use the id: =RENT.MARKET(${raleigh}, …).`,
  });
});

it("takes the city, not the metro ranked before it, where a function takes cities", async () => {
  const city = await idOf("Raleigh, NC", "CensusPlace");
  const area = (value: unknown) =>
    properties([[value]], [["property_id"]], [["max_results=5"]], undefined, fakeInvocation());

  await expect(area("Raleigh, NC")).resolves.toEqual(await area(city));
  await expect(area("Raleigh")).resolves.toEqual(await area(city));
});
