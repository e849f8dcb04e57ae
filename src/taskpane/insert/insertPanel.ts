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
import {
  DEFAULT_FORECAST_INTERVAL,
  FORECAST_INTERVALS,
  formulasFor,
  type FormulaOptions,
  type InsertKind,
} from "./insertFormulas";
import { MARKETS_DEFAULTS, MARKETS_DIRECTIONS, MARKETS_LIMIT } from "../../functions/args/marketsOptions";

/** Waits this long after the last key before searching, so typing "Austin" asks once, not six times. */
const SEARCH_DEBOUNCE_MS = 300;

const CHOICES: Readonly<Record<InsertKind, { target: string; fields: readonly CatalogueField[] }>> = {
  market: { target: "Market", fields: MARKET_METRICS },
  markets: { target: "Market", fields: MARKET_METRICS },
  property: { target: "Property", fields: PROPERTY_FIELDS },
  propertyForecast: { target: "Property", fields: PROPERTY_FORECAST_FIELDS },
  forecast: { target: "Market", fields: BOUNDARY_FORECAST_FIELDS },
  compSet: { target: "Comp set", fields: COMP_SET_TABLES },
  narrative: { target: "Market", fields: NARRATIVE_SECTIONS },
};

/**
 * A block formula with the cell it goes to, as the formula box shows it before (and after) inserting; of one
 * formula per property, the first and how many more.
 */
function formulaLine({ address, formulas }: Planned): string {
  const more = formulas.length > 1 ? `  (and ${formulas.length - 1} more, one per property)` : "";
  return `${address}: ${formulas[0] ?? ""}${more}`;
}

/** A native select's options: each value with its words; the empty value first says what leaving it means. */
function fillSelect(select: HTMLSelectElement, empty: string, values: readonly string[]): void {
  const kept = select.value;
  const option = (value: string, text: string) => new Option(text, value, false, value === kept);
  select.replaceChildren(option("", empty), ...values.map((value) => option(value, value)));
}

/** The kinds that show the forecast options (interval, dollars, dates). */
const FORECAST_KINDS: ReadonlySet<InsertKind> = new Set(["propertyForecast", "forecast"]);

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
  const interval = element<HTMLSelectElement>("insert-interval");
  const dollars = element<HTMLInputElement>("insert-dollars");
  const sortBy = element<HTMLSelectElement>("insert-markets-sort");
  const direction = element<HTMLSelectElement>("insert-markets-direction");
  const previewButton = element<HTMLButtonElement>("insert-preview-button");

  let found: Found[] = [];
  let chosen: Found | undefined;
  const picked = new Set<string>();
  let pendingSearch: { timer: ReturnType<typeof setTimeout>; abort: AbortController } | undefined;

  const kind = () => kindPicker.value as InsertKind;

  // The option lists come from the contract and the functions' own option modules.
  fillSelect(interval, `Default (${DEFAULT_FORECAST_INTERVAL})`, FORECAST_INTERVALS);
  fillSelect(direction, `Default (${MARKETS_DEFAULTS.sort_direction})`, MARKETS_DIRECTIONS);
  element("insert-markets-limit-label").textContent =
    `Markets shown (${MARKETS_LIMIT.minimum} to ${MARKETS_LIMIT.maximum}; empty: ${MARKETS_DEFAULTS.limit})`;

  const options = (): FormulaOptions => ({
    forecast: {
      interval: interval.value,
      useRentValue: dollars.checked === true,
      start: fieldText("insert-start"),
      end: fieldText("insert-end"),
    },
    markets: {
      sort: sortBy.value,
      direction: direction.value,
      limit: fieldText("insert-markets-limit"),
    },
  });

  let formulaAsked = 0;
  const showFormula = () => {
    // The metrics to sort by are the ones picked; empty sorts by the first, as RENT.MARKETS does.
    fillSelect(sortBy, "The first metric picked", [...picked]);
    try {
      const subject = chosen && { id: chosen.id };
      formula.textContent =
        subject || kind() === "markets"
          ? formulasFor(kind(), subject, [...picked], options()).join("  ")
          : "";
    } catch {
      // An incomplete choice has no formula yet; Insert says what is missing.
      formula.textContent = "";
    }
    // With several cells selected the formula is one block over them, placed beside them: ask the workbook.
    const asked = ++formulaAsked;
    controller.plan(kind(), chosen, [...picked], options()).then(
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

  const showOptions = () => {
    element("insert-forecast-options").hidden = !FORECAST_KINDS.has(kind());
    element("insert-markets-options").hidden = kind() !== "markets";
    // RENT.MARKETS is about no one market: nothing to search for.
    for (const id of ["insert-search", "insert-search-hint", "insert-found"])
      element(id).hidden = kind() === "markets";
  };

  kindPicker.addEventListener("change", () => {
    picked.clear();
    found = [];
    chosen = undefined;
    search.value = "";
    filter.value = "";
    showOptions();
    element("insert-search-label").textContent = CHOICES[kind()].target;
    preview.replaceChildren();
    renderFound();
    renderFields();
  });

  filter.addEventListener("input", renderFields);
  for (const id of ["insert-interval", "insert-dollars", "insert-markets-sort", "insert-markets-direction"])
    element(id).addEventListener("change", showFormula);
  for (const id of ["insert-start", "insert-end", "insert-markets-limit"])
    element(id).addEventListener("input", showFormula);

  insertButton.addEventListener("click", () =>
    whileBusy(insertButton, status, async () => {
      const inserted = await controller.insert(kind(), chosen, [...picked], options());
      const count = inserted.formulas.length;
      const what = inserted.with ? `, ${inserted.with}` : "";
      const note = inserted.note ? ` (${inserted.note})` : "";
      status.show(
        `Inserted ${count} ${count === 1 ? "formula" : "formulas"} at ${inserted.address}${what}${note}.`,
      );
      if (inserted.block) formula.textContent = formulaLine(inserted);
    }),
  );

  previewButton.addEventListener("click", () =>
    whileBusy(previewButton, status, async () => {
      if (!chosen && kind() !== "markets")
        throw new PaneInputError("Find and choose what the formula is about first.");
      if (picked.size === 0) throw new PaneInputError("Pick at least one field from the list.");
      fillList(preview, await controller.preview(kind(), chosen?.id, [...picked], options()));
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
  showOptions();
  renderFields();
}
