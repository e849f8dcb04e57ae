import { SHARED_ACCOUNT_ID } from "../../sandbox/data/clients";
import type { RunningSandbox } from "../../sandbox/server";
import { SANDBOX_VARIANTS } from "../../sandbox/variant";
import { NUMBER_FORMAT_BY_KIND } from "../../src/tables/columnKinds";
import {
  CompSetsController,
  exportSheetName,
  type CompSetSummary,
} from "../../src/taskpane/compSetsController";
import type { ExcelRunner } from "../../src/taskpane/excelRunner";
import { describeError } from "../../src/taskpane/messages";
import type { Session } from "../../src/session/session";
import { SignInController } from "../../src/taskpane/signInController";
import { MockExcel } from "../excel/support/mockExcel";
import { clientForm, newSession, newSettings, newVault, startPaneSandbox } from "./support/paneHarness";

/** What the pane shows when an export ends: a cancellation must read as one, not as a failure to act on. */
const shownAfter = (exporting: Promise<unknown>) => exporting.then(() => "exported", describeError);
const CANCELLED = /^(The request was )?cancelled\.$/i;

describe.each(SANDBOX_VARIANTS)("against the %s variant", (variant) => {
  let sandbox: RunningSandbox;
  let controller: CompSetsController;
  let excel: MockExcel;
  let compSet: CompSetSummary;
  let raw: (path: string) => Promise<unknown>;
  let session: Session;

  beforeAll(async () => {
    sandbox = await startPaneSandbox({ variant });
    session = newSession();
    await new SignInController({ session, ...newSettings(), vault: newVault().vault }).signIn(
      clientForm(sandbox, "demo-pro"),
    );
    session.selectAccount(SHARED_ACCOUNT_ID);
    excel = new MockExcel();
    excel.addSheet("Model");
    controller = new CompSetsController(session, excel.excel.run);
    const client = session.current?.client;
    if (!client) throw new Error("signed in");
    raw = async (path) =>
      client.call((context) => client.api.GET(path as "/accounts", { ...context, params: { query: {} } }));
    const sets = await controller.list();
    const first = sets[0];
    if (!first) throw new Error("the shared account has comp sets");
    compSet = first;
  });

  afterAll(async () => {
    await sandbox.close();
  });

  describe("exportSheetName", () => {
    it("keeps the export's word and room for a collision number within Excel's 31 characters", () => {
      const long = "The Highland Union Village at Riverside Commons";
      const names = (["units", "survey", "floorPlans"] as const).map((what) => exportSheetName(long, what));
      expect(new Set(names).size).toBe(3);
      for (const name of names) expect(Array.from(name).length).toBeLessThanOrEqual(31 - 4);
      expect(names[2]).toMatch(/… floor plans$/);
      expect(exportSheetName("Oak Park", "units")).toBe("Oak Park units");
    });
  });

  describe("comp sets in the pane", () => {
    it("lists the account's comp sets as the service does", async () => {
      const answer = (await raw(`/accounts/${SHARED_ACCOUNT_ID}/comp_sets`)) as {
        data: { id: string; attributes: { name: string; property_ids: number[] } }[];
      };
      expect(await controller.list()).toEqual(
        answer.data.map((set) =>
          expect.objectContaining({
            id: Number(set.id),
            name: set.attributes.name,
            propertyCount: set.attributes.property_ids.length,
          }),
        ),
      );
    });

    it("exports units to a new sheet named after the comp set: every unit, a header, formats, frozen header", async () => {
      const answer = (await raw(`/comp_sets/${compSet.id}/units`)) as { data: unknown[] };
      const progress: number[] = [];

      const result = await controller.export(compSet, "units", {
        onProgress: (p) => progress.push(p.rowsWritten),
      });

      const sheet = excel.sheet(result.sheetName);
      expect(result.sheetName).toBe(exportSheetName(compSet.name, "units"));
      expect(result.sheetName).toMatch(/ units$/);
      expect(result.rowsWritten).toBe(answer.data.length);
      expect(sheet.values).toHaveLength(answer.data.length + 1);
      expect(sheet.values[0]).toEqual(
        expect.arrayContaining(["Minimum rent", "Concessions", "Amenities: Dishwasher"]),
      );
      expect(sheet.frozenRows).toBe(1);
      expect(sheet.tables).toHaveLength(1);
      expect(sheet.autofitted.length).toBeGreaterThan(0);
      const rentColumn = sheet.values[0]?.indexOf("Minimum rent") ?? -1;
      expect(sheet.numberFormats[1]?.[rentColumn]).toBe(NUMBER_FORMAT_BY_KIND.currency);
      expect(progress.at(-1)).toBe(answer.data.length);
    });

    it("never overwrites: a second export of the same comp set gets a sheet of its own", async () => {
      const first = await controller.export(compSet, "survey");
      const before = excel.sheet(first.sheetName).values.map((row) => [...row]);

      const second = await controller.export(compSet, "survey");

      expect(second.sheetName).not.toBe(first.sheetName);
      expect(second.sheetName).toMatch(/\(2\)$/);
      expect(excel.sheet(first.sheetName).values).toEqual(before);
      expect(excel.sheet(second.sheetName).values).toEqual(before);
    });

    it("exports the market survey with the comp average as its last row, percents as fractions under Excel's percent format", async () => {
      const answer = (await raw(`/comp_sets/${compSet.id}/market_survey`)) as {
        data: { attributes: { market_survey_items: { leased_percent: number }[] } };
      };
      const result = await controller.export(compSet, "survey");
      const sheet = excel.sheet(result.sheetName);
      const nameColumn = sheet.values[0]?.indexOf("Property name") ?? -1;
      expect(result.rowsWritten).toBe(answer.data.attributes.market_survey_items.length + 1);
      expect(sheet.values.at(-1)?.[nameColumn]).toBe("Comp average");
      const leasedColumn = sheet.values[0]?.indexOf("Leased %") ?? -1;
      const sent = answer.data.attributes.market_survey_items[0]?.leased_percent ?? 0;
      expect(sheet.values[1]?.[leasedColumn]).toBeCloseTo(variant === "alternate" ? sent / 100 : sent, 6);
      expect(sheet.numberFormats[1]?.[leasedColumn]).toBe("0.00%");
    });

    it("exports floor plans, one row per plan", async () => {
      type Buckets = { floor_plans: unknown[] }[];
      const answer = (await raw(`/comp_sets/${compSet.id}/floor_plans`)) as {
        data: { attributes: { floor_plans_by_bed_bath?: Buckets; floor_plans_by_bed?: Buckets } };
      };
      const { attributes } = answer.data;
      const buckets = attributes.floor_plans_by_bed_bath ?? attributes.floor_plans_by_bed ?? [];
      const plans = buckets.flatMap((bucket) => bucket.floor_plans);
      const result = await controller.export(compSet, "floorPlans");
      expect(result.sheetName).toContain("floor plans");
      expect(result.rowsWritten).toBe(plans.length);
      expect(excel.sheet(result.sheetName).values).toHaveLength(plans.length + 1);
    });

    it("cancelled before it starts: fails as cancelled, and no sheet is made", async () => {
      const sheetsBefore = excel.sheets.map((s) => s.name);
      const abort = new AbortController();
      abort.abort(); // as the pane's Cancel button does: no reason of its own
      const shown = await shownAfter(controller.export(compSet, "units", { signal: abort.signal }));
      expect(shown).toMatch(CANCELLED);
      expect(excel.sheets.map((s) => s.name)).toEqual(sheetsBefore);
    });

    it("cancelled while it writes: fails as cancelled and removes the half-written sheet", async () => {
      const sheetsBefore = excel.sheets.map((s) => s.name);
      const abort = new AbortController();
      let cancelledWith: string | undefined;
      // Cancels right after the request that added the export's sheet: the rows are still to be written.
      const cancelOnceTheSheetExists: ExcelRunner = (batch) =>
        excel.excel.run((context) => {
          const sync = async () => {
            await context.sync();
            const added = excel.sheets.find((sheet) => !sheetsBefore.includes(sheet.name));
            if (added && !abort.signal.aborted) {
              cancelledWith = added.name;
              abort.abort();
            }
          };
          return batch(
            new Proxy(context, { get: (target, key) => (key === "sync" ? sync : Reflect.get(target, key)) }),
          );
        });
      const cancelling = new CompSetsController(session, cancelOnceTheSheetExists);

      const shown = await shownAfter(cancelling.export(compSet, "units", { signal: abort.signal }));

      expect(shown).toMatch(CANCELLED);
      expect(cancelledWith).toContain(exportSheetName(compSet.name, "units"));
      expect(excel.sheets.map((s) => s.name)).toEqual(sheetsBefore);
    });
  });
});
