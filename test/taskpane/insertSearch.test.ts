/**
 * The Insert tab's search for what a formula is about, against the sandbox over HTTP: properties by name,
 * address or city, each with its id and address, saying when the list shows fewer than match; a base-plan
 * sign-in told why property search is not there and what its plan offers instead.
 */
import { SHARED_ACCOUNT_ID } from "../../sandbox/data/clients";
import type { RunningSandbox } from "../../sandbox/server";
import { outsideExcel } from "../../src/taskpane/excelRunner";
import { InsertController } from "../../src/taskpane/insert/insertController";
import { PaneInputError } from "../../src/taskpane/paneInputError";
import { SignInController } from "../../src/taskpane/signInController";
import { rawService, type RawService } from "../support/rawService";
import {
  clientForm,
  newSession,
  newSettings,
  newVault,
  secretOf,
  startPaneSandbox,
} from "./support/paneHarness";

interface Lookup {
  data: number[];
  pagination: { total_count: number; total_pages: number };
}
interface Envelope {
  id: string;
  attributes: Record<string, unknown>;
}

let sandbox: RunningSandbox;
let raw: RawService;

async function signedInController(clientId: string): Promise<InsertController> {
  const session = newSession();
  await new SignInController({ session, ...newSettings(), vault: newVault().vault }).signIn(
    clientForm(sandbox, clientId),
  );
  session.selectAccount(SHARED_ACCOUNT_ID);
  return new InsertController(session, outsideExcel);
}

/** Every property id one lookup filter matches, all pages. */
async function allMatching(filter: string, value: string): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const answer = await raw.get<Lookup>("/properties/lookup", {
      account_id: SHARED_ACCOUNT_ID,
      [filter]: value,
      per_page: 200,
      page,
    });
    ids.push(...answer.data);
    if (page >= answer.pagination.total_pages) return ids;
  }
}

/** The properties a person means by what they typed: its name, address or city. */
async function truthFor(typed: string): Promise<Set<number>> {
  const lists = await Promise.all(
    ["property_name", "address", "city"].map((filter) => allMatching(filter, typed)),
  );
  return new Set(lists.flat());
}

async function records(ids: readonly number[]): Promise<Map<number, Record<string, unknown>>> {
  const { data } = await raw.get<{ data: Envelope[] }>("/properties/bulk_details", {
    account_id: SHARED_ACCOUNT_ID,
    property_ids: ids.join(","),
  });
  return new Map(data.map((record) => [Number(record.id), record.attributes]));
}

beforeAll(async () => {
  sandbox = await startPaneSandbox();
  raw = await rawService(sandbox.url, "demo-pro", secretOf("demo-pro"));
});

afterAll(async () => {
  await sandbox.close();
});

describe("property search in the Insert tab", () => {
  let pro: InsertController;
  beforeAll(async () => {
    pro = await signedInController("demo-pro");
  });

  it("finds a city's properties, each with its id and address, and says the list is capped", async () => {
    const truth = await truthFor("Austin");
    expect(truth.size).toBeGreaterThan(8);
    const { found, summary } = await pro.find("property", "Austin");
    expect(found).toHaveLength(8);
    const details = await records(found.map((match) => match.id));
    for (const match of found) {
      expect(truth.has(match.id)).toBe(true);
      const record = details.get(match.id) ?? {};
      expect(record.city).toBe("Austin");
      expect(match.label).toBe(
        `${String(record.property_name)} · ${String(record.address)}, Austin, ${String(record.state)} · id ${match.id}`,
      );
    }
    expect(summary).toBe(
      `Showing 8 of ${truth.size} found for "Austin" (name, address or city): refine it (more of the name, or the street) to see the rest.`,
    );
  });

  it("finds a property by part of its street address", async () => {
    const [id] = await allMatching("city", "Dallas");
    const record = (await records([id as number])).get(id as number) ?? {};
    // "4821 Oak Blvd" -> "4821 Oak": the number and the street's name, as a person remembers an address.
    const typed = String(record.address).split(" ").slice(0, 2).join(" ");
    const truth = await truthFor(typed);
    const { found, summary } = await pro.find("property", typed);
    expect(found.map((match) => match.id)).toContain(id);
    expect(found.find((match) => match.id === id)?.label).toContain(`${String(record.address)}, Dallas`);
    if (truth.size <= 8) {
      expect(new Set(found.map((match) => match.id))).toEqual(truth);
      expect(summary).toBe(`${truth.size} found for "${typed}" (name, address or city).`);
    }
  });

  it("tells properties of the same name apart by id and address", async () => {
    // Among 2,000 synthetic properties names repeat: find one name two properties carry.
    const candidates = await records((await allMatching("city", "Houston")).slice(0, 100));
    const byName = new Map<string, number[]>();
    for (const [id, record] of candidates) {
      const name = String(record.property_name);
      byName.set(name, [...(byName.get(name) ?? []), id]);
    }
    let twins: { name: string; ids: number[] } | undefined;
    for (const name of byName.keys()) {
      const everywhere = await allMatching("property_name", name);
      const same = [...(await records(everywhere.slice(0, 8)))]
        .filter(([, record]) => record.property_name === name)
        .map(([id]) => id);
      if (same.length >= 2) {
        twins = { name, ids: same };
        break;
      }
    }
    if (!twins) throw new Error("the sandbox has no two properties of one name among these");
    const { found } = await pro.find("propertyForecast", twins.name);
    const labels = found.filter((match) => twins.ids.includes(match.id)).map((match) => match.label);
    expect(labels.length).toBeGreaterThanOrEqual(2);
    expect(new Set(labels).size).toBe(labels.length);
    for (const match of found) {
      expect(match.label).toMatch(new RegExp(`^.+ · \\d+ .+, .+, [A-Z]{2} · id ${match.id}$`));
    }
  });

  it("says what to type when nothing matches", async () => {
    const { found, summary } = await pro.find("property", "Zzqx Nowhere");
    expect(found).toEqual([]);
    expect(summary).toBe(
      'Nothing found for "Zzqx Nowhere" (name, address or city): a city must be whole ("Austin"); a name or street may be a part ("Oak", "Elm St").',
    );
  });
});

it("tells a base-plan sign-in why property search is not there and what its plan offers", async () => {
  const base = await signedInController("demo-base");
  const searching = base.find("property", "Austin");
  await expect(searching).rejects.toBeInstanceOf(PaneInputError);
  await expect(searching).rejects.toThrow(
    /^Property search needs the pro plan, which this sign-in does not have .*"A comp set table" \(RENT\.SURVEY\).*"A market metric"/,
  );
  // What it offers works on that plan: comp sets, and markets by name.
  await expect(base.find("compSet", "an")).resolves.toMatchObject({ found: expect.any(Array) });
  const markets = await base.find("market", "Austin");
  expect(markets.found.length).toBeGreaterThan(0);
});
