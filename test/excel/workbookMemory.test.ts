import { readWorkbookIdentity, workbookIdentity } from "../../src/excel/workbookMemory";
import { MockExcel } from "./support/mockExcel";

describe("a workbook's identity", () => {
  it("is made once, on the first ask, kept in the workbook's settings, and the same on every later ask", async () => {
    const excel = new MockExcel();
    await expect(excel.excel.run(readWorkbookIdentity)).resolves.toBeUndefined();
    // Reading alone leaves the workbook as it was: no setting, so Excel does not ask to save it.
    expect(excel.settings.size).toBe(0);

    const made = await excel.excel.run(workbookIdentity);
    expect(made).toMatch(/^[0-9a-f]{32}$/);
    await expect(excel.excel.run(workbookIdentity)).resolves.toBe(made);
    await expect(excel.excel.run(readWorkbookIdentity)).resolves.toBe(made);
    expect([...excel.settings.values()]).toEqual([made]);
  });

  it("is another for another workbook", async () => {
    const [one, other] = await Promise.all(
      [new MockExcel(), new MockExcel()].map((excel) => excel.excel.run(workbookIdentity)),
    );
    expect(one).not.toBe(other);
  });
});
