/**
 * One function result stays within Excel's 5 MB for a custom function's payload (office-js #4654; the stand-in
 * fails a result over it, test/host/standinWorkbook.test.ts): RENT.PROPERTY with no field over 700 ids asks for
 * 700 cards of several kilobytes each, against the sandbox.
 */
import { property } from "../../src/functions/propertyFunctions";
import { session } from "../../src/session/session";
import { EXCEL_REQUEST_LIMIT_BYTES, jsonByteLength } from "../../src/tables/payloadBytes";
import { HOST_PROFILES, supportsSet } from "../host/profiles";
import { fakeInvocation } from "../support/invocation";
import { startSignedInSandbox, type SignedInSandbox } from "../support/signedInSandbox";

let env: SignedInSandbox;
let ids: number[];

beforeAll(async () => {
  env = await startSignedInSandbox("demo-pro");
  const page = async (number: number) =>
    (
      await env.raw.get<{ data: number[] }>("/properties/lookup", {
        account_id: env.accountId,
        per_page: 200,
        page: number,
      })
    ).data;
  ids = (await Promise.all([1, 2, 3, 4].map(page))).flat().slice(0, 700);
  const profile = HOST_PROFILES["m365-windows"];
  const isSetSupported = (name: string, version?: string) => supportsSet(profile, name, version);
  Object.assign(globalThis, { Office: { context: { requirements: { isSetSupported } } } });
});

afterAll(async () => {
  delete (globalThis as { Office?: unknown }).Office;
  await env.close();
});

describe("RENT.PROPERTY's cards in one result", () => {
  it("keeps 700 ids' cards under 5 MB, the ones left out saying how many and how to get them", async () => {
    expect(ids).toHaveLength(700);
    const ask = () =>
      property(
        ids.map((id) => [id]),
        undefined,
        fakeInvocation(),
      );
    // 700 properties are more of the bulk export quota than one pull may spend: the person allows it once.
    await ask();
    expect(session.requireSignedIn().data.quota.allowHeld()?.properties).toBe(700);
    const result = await ask();
    expect(result).toHaveLength(700);
    expect(jsonByteLength(result)).toBeLessThanOrEqual(EXCEL_REQUEST_LIMIT_BYTES);
    const cards = result.filter(([cell]) => (cell as { type?: unknown }).type === "Entity");
    const leftOut = result.slice(cards.length).map(([cell]) => cell as CustomFunctions.Error);
    // The cards come first, in the ids' order; every cell after them is an #N/A naming the count.
    expect(cards.length).toBeGreaterThan(300);
    expect(leftOut.length).toBeGreaterThan(0);
    expect(leftOut.every((cell) => cell.code === CustomFunctions.ErrorCode.notAvailable)).toBe(true);
    expect(leftOut[0]?.message).toBe(
      `${leftOut.length} of 700 cards left out: one formula's result is limited to 5 MB. Name fields (such as "asking_rent,unit_count") or split the ids over several formulas.`,
    );
  });
});
