import type { Session } from "../../session/session";
import { element, fieldText, fillList, setChecked, whileBusy, type StatusLine } from "../dom";
import type { ExcelRunner } from "../excelRunner";
import { PaneInputError } from "../paneInputError";
import {
  BOUNDARY_FORECAST_FIELDS,
  COMP_SET_TABLES,
  MARKET_METRICS,
  NARRATIVE_SECTIONS,
  PROPERTY_FIELDS,
  PROPERTY_FORECAST_FIELDS,
  filterFields,
  type CatalogueField,
} from "./fieldCatalogue";
import { InsertController, type Found, type Planned } from "./insertController";
import { formulasFor, type InsertKind } from "./insertFormulas";

/** Waits this long after the last key before searching, so typing "Austin" asks once, not six times. */
const SEARCH_DEBOUNCE_MS = 300;

const CHOICES: Readonly<Record<InsertKind, { target: string; fields: readonly CatalogueField[] }>> = {
  market: { target: "Market", fields: MARKET_METRICS },
  property: { target: "Property", fields: PROPERTY_FIELDS },
  propertyForecast: { target: "Property", fields: PROPERTY_FORECAST_FIELDS },
  forecast: { target: "Market", fields: BOUNDARY_FORECAST_FIELDS },
  compSet: { target: "Comp set", fields: COMP_SET_TABLES },
  narrative: { target: "Market", fields: NARRATIVE_SECTIONS },
};

/** A block formula with the cell it goes to, as the formula box shows it before (and after) inserting. */
const formulaLine = (planned: Planned) => `${planned.address}: ${planned.formulas.join("  ")}`;

/** A Fluent radio or check box with its label after it, in a Fluent field (which ties the two together). */
function choiceRow(kind: "radio" | "checkbox", id: string, label: Node[], checked: boolean) {
  const row = document.createElement("fluent-field");
  row.setAttribute("label-position", "after");
  const input = document.createElement(`fluent-${kind}`) as HTMLInputElement;
  input.slot = "input";
  input.id = id;
  setChecked(input, checked);
  const text = document.createElement("label");
  text.slot = "label";
  text.append(...label);
  row.append(text, input);
  return { row, input };
}

/** Wires the Insert tab: what to insert, what it is about, which fields; then a preview or the insert. */
export function wireInsertPanel(session: Session, runExcel: ExcelRunner, status: StatusLine): void {
  const controller = new InsertController(session, runExcel);
  const kindPicker = element<HTMLSelectElement>("insert-kind");
  const search = element<HTMLInputElement>("insert-search");
  const foundGroup = element("insert-found-group");
  const filter = element<HTMLInputElement>("insert-field-filter");
  const fieldSet = element("insert-fields");
  const formula = element("insert-formula");
  const preview = element("insert-preview");
  const insertButton = element<HTMLButtonElement>("insert-button");
  const previewButton = element<HTMLButtonElement>("insert-preview-button");

  let found: Found[] = [];
  let chosen: Found | undefined;
  const picked = new Set<string>();
  let pendingSearch: { timer: ReturnType<typeof setTimeout>; abort: AbortController } | undefined;

  const kind = () => kindPicker.value as InsertKind;

  let formulaAsked = 0;
  const showFormula = () => {
    try {
      formula.textContent = chosen ? formulasFor(kind(), { id: chosen.id }, [...picked]).join("  ") : "";
    } catch {
      // An incomplete choice has no formula yet; Insert says what is missing.
      formula.textContent = "";
    }
    // With several cells selected the formula is one block over them, placed beside them: ask the workbook.
    const asked = ++formulaAsked;
    controller.plan(kind(), chosen, [...picked]).then(
      (planned) => {
        if (asked === formulaAsked && planned.block) formula.textContent = formulaLine(planned);
      },
      () => undefined,
    );
  };

  const renderFields = () => {
    const rows = filterFields(CHOICES[kind()].fields, fieldText("insert-field-filter")).map((field) => {
      const meaning = document.createElement("span");
      meaning.className = "field-meaning";
      // A field outside the base plan says which plan it needs: its cell gives "Not in your plan (...)" below it.
      meaning.textContent = `${field.meaning} · ${field.unit}${field.plan ? ` · ${field.plan} plan` : ""}`;
      // The readable name to read, the field id beside it: the id is what the formula takes.
      const id = document.createElement("code");
      id.className = "field-id";
      id.textContent = field.name;
      const title = field.label ? [document.createTextNode(`${field.label} `), id] : [id];
      const { row, input } = choiceRow(
        "checkbox",
        `insert-field-${field.name}`,
        [...title, meaning],
        picked.has(field.name),
      );
      input.value = field.name;
      input.addEventListener("change", () => {
        if (input.checked === true) picked.add(field.name);
        else picked.delete(field.name);
        showFormula();
      });
      return row;
    });
    fieldSet.replaceChildren(fieldSet.querySelector("legend") as Node, ...rows);
  };

  const renderFound = () => {
    const rows = found.map((match) => {
      const { row, input } = choiceRow(
        "radio",
        `insert-found-${match.id}`,
        [document.createTextNode(match.label)],
        chosen?.id === match.id,
      );
      input.value = String(match.id);
      input.addEventListener("change", () => {
        if (input.checked !== true) return;
        chosen = match;
        showFormula();
      });
      return row;
    });
    foundGroup.replaceChildren(...rows);
    showFormula();
  };

  const runSearch = async (typed: string, signal: AbortSignal) => {
    const results = await controller.find(kind(), typed, signal);
    if (signal.aborted) return;
    found = results.found;
    // The best match is chosen until the person picks another.
    chosen = found[0];
    renderFound();
    status.show(results.summary);
  };

  search.addEventListener("input", () => {
    if (pendingSearch) {
      clearTimeout(pendingSearch.timer);
      pendingSearch.abort.abort();
    }
    const abort = new AbortController();
    const typed = fieldText("insert-search");
    const timer = setTimeout(() => {
      runSearch(typed, abort.signal).catch((error: unknown) => {
        if (!abort.signal.aborted) status.error(error);
      });
    }, SEARCH_DEBOUNCE_MS);
    pendingSearch = { timer, abort };
  });

  kindPicker.addEventListener("change", () => {
    picked.clear();
    found = [];
    chosen = undefined;
    search.value = "";
    filter.value = "";
    element("insert-search-label").textContent = CHOICES[kind()].target;
    preview.replaceChildren();
    renderFound();
    renderFields();
  });

  filter.addEventListener("input", renderFields);

  insertButton.addEventListener("click", () =>
    whileBusy(insertButton, status, async () => {
      const inserted = await controller.insert(kind(), chosen, [...picked]);
      const count = inserted.formulas.length;
      const note = inserted.note ? ` (${inserted.note})` : "";
      status.show(`Inserted ${count} ${count === 1 ? "formula" : "formulas"} at ${inserted.address}${note}.`);
      if (inserted.block) formula.textContent = formulaLine(inserted);
    }),
  );

  previewButton.addEventListener("click", () =>
    whileBusy(previewButton, status, async () => {
      if (!chosen) throw new PaneInputError("Find and choose what the formula is about first.");
      if (picked.size === 0) throw new PaneInputError("Pick at least one field from the list.");
      fillList(preview, await controller.preview(kind(), chosen.id, [...picked]));
      status.show("The value for this choice is shown under the buttons.");
    }),
  );

  // A block formula refers to the selected cells: it changes with the selection (Workbook.onSelectionChanged,
  // ExcelApi 1.2, within the manifest's minimum). Outside Excel there is no selection to follow.
  runExcel(async (context) => {
    context.workbook.onSelectionChanged.add(async () => showFormula());
    await context.sync();
  }).catch(() => undefined);

  const showSignedIn = () => {
    element("insert-signed-out").hidden = session.current !== undefined;
  };
  session.onChange(showSignedIn);
  showSignedIn();
  renderFields();
}
