import type { Session, SignedIn } from "../session/session";
import type { CompSetExport, CompSetsController, CompSetSummary } from "./compSetsController";
import { element, showProgress, whileBusy, type StatusLine } from "./dom";

const EXPORT_BUTTONS: Readonly<Record<CompSetExport, string>> = {
  units: "export-units-button",
  survey: "export-survey-button",
  floorPlans: "export-floor-plans-button",
};

const EXPORT_WORDS: Readonly<Record<CompSetExport, string>> = {
  units: "units",
  survey: "market survey",
  floorPlans: "floor plans",
};

/** The account's comp sets and their one-click exports to new sheets. */
export function wireCompSetsPanel(
  session: Session,
  controller: CompSetsController,
  status: StatusLine,
): void {
  const picker = element<HTMLSelectElement>("comp-set-picker");
  let compSets: CompSetSummary[] = [];
  let shownFor: string | undefined;
  let running: AbortController | undefined;

  const load = async () => {
    compSets = await controller.list();
    picker.replaceChildren(
      ...compSets.map((set) => new Option(`${set.name} (${set.propertyCount} properties)`, String(set.id))),
    );
    if (compSets.length === 0) status.show("This account has no comp sets.");
  };

  session.onChange((state: SignedIn | undefined) => {
    element("comp-sets-section").hidden = state === undefined;
    running?.abort();
    const key = state ? `${state.owner}|${state.accountId}` : undefined;
    if (key === shownFor) return;
    shownFor = key;
    picker.replaceChildren();
    if (state) load().catch((error: unknown) => status.error(error));
  });

  element<HTMLButtonElement>("comp-sets-reload-button").addEventListener("click", () => {
    void whileBusy(element("comp-sets-reload-button"), status, load);
  });

  const area = element("export-progress-area");
  const bar = element<HTMLProgressElement>("export-progress");
  const label = element("export-progress-label");
  element<HTMLButtonElement>("export-cancel-button").addEventListener("click", () => running?.abort());

  for (const [what, buttonId] of Object.entries(EXPORT_BUTTONS) as [CompSetExport, string][]) {
    element<HTMLButtonElement>(buttonId).addEventListener("click", () => {
      const compSet = compSets.find((set) => String(set.id) === picker.value);
      if (!compSet) {
        status.show("Choose a comp set first (Reload comp sets if the list is empty).");
        return;
      }
      running = new AbortController();
      const signal = running.signal;
      void whileBusy(element(buttonId), status, async () => {
        area.hidden = false;
        label.textContent = `Reading ${EXPORT_WORDS[what]} of ${compSet.name}`;
        showProgress(bar, 0, undefined);
        try {
          const result = await controller.export(compSet, what, {
            signal,
            onProgress: ({ rowsWritten, totalRows }) => {
              label.textContent = `Writing rows: ${rowsWritten} of ${totalRows}`;
              showProgress(bar, rowsWritten, totalRows);
            },
          });
          status.show(
            result.empty
              ? `${compSet.name} has no ${EXPORT_WORDS[what]} to export.`
              : `Wrote ${result.rowsWritten} rows of ${EXPORT_WORDS[what]} to the sheet "${result.sheetName}".`,
          );
        } finally {
          area.hidden = true;
        }
      });
    });
  }
}
