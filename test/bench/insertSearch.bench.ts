/**
 * What the Insert tab's property search costs in requests: a search by name, address or city is one lookup
 * per filter and one bulk details call for the matches shown (which also count toward the bulk export quota);
 * the same search again answers from the cache.
 *
 *   npx tsx test/bench/insertSearch.bench.ts [--json]
 */
import { SHARED_ACCOUNT_ID } from "../../sandbox/data/clients";
import { outsideExcel } from "../../src/taskpane/excelRunner";
import { InsertController } from "../../src/taskpane/insert/insertController";
import { SignInController } from "../../src/taskpane/signInController";
import {
  clientForm,
  newSession,
  newSettings,
  newVault,
  startPaneSandbox,
} from "../taskpane/support/paneHarness";

const SEARCHES = ["Austin", "Oak", "Elm St"];

async function main(): Promise<void> {
  const sandbox = await startPaneSandbox();
  try {
    const session = newSession();
    await new SignInController({ session, ...newSettings(), vault: newVault().vault }).signIn(
      clientForm(sandbox, "demo-pro"),
    );
    session.selectAccount(SHARED_ACCOUNT_ID);
    const controller = new InsertController(session, outsideExcel);
    const figures: Record<string, unknown>[] = [];
    for (const typed of SEARCHES) {
      for (const round of ["first", "again"]) {
        sandbox.counters.reset();
        const { found, summary } = await controller.find("property", typed);
        figures.push({ typed, round, shown: found.length, requests: sandbox.counters.snapshot(), summary });
      }
    }
    if (process.argv.includes("--json")) console.log(JSON.stringify(figures, null, 2));
    else for (const figure of figures) console.log(figure);
  } finally {
    await sandbox.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
