import { COMP_SETS } from "../data/endpoints";
import { isTemplateId, type TemplateId } from "../excel/templates/catalogue";
import { compSetSurvey } from "../excel/templates/compSetSurvey";
import { marketComparison } from "../excel/templates/marketComparison";
import { propertyForecast } from "../excel/templates/propertyForecast";
import { rentComps } from "../excel/templates/rentComps";
import { rentProjection } from "../excel/templates/rentProjection";
import { writeTemplate, type SheetTemplate, type WrittenTemplate } from "../excel/templates/sheetTemplate";
import {
  DEFAULT_WAIT,
  chartTemplateBlocks,
  type ChartedBlock,
  type WaitOptions,
} from "../excel/templates/templateCharts";
import type { Session } from "../session/session";
import { chartAsOf } from "./chartsController";
import type { ExcelRunner } from "./excelRunner";
import { PaneInputError } from "./paneInputError";

/** How many of a comp set's properties the survey template lists field by field. */
const SURVEY_PROPERTIES = 5;

/**
 * "New sheet from template": fills a template's inputs with something that answers (the comp set chosen in the
 * pane, else the account's first, and its properties) and writes it to a new sheet. The comp set list is the
 * data layer's cached answer, so a template costs no request once the pane has shown the comp sets.
 */
export class TemplatesController {
  constructor(
    private readonly session: Session,
    private readonly runExcel: ExcelRunner,
    private readonly today: () => Date = () => new Date(),
    private readonly wait: WaitOptions = DEFAULT_WAIT,
  ) {}

  async create(
    choice: string,
    chosenCompSetId?: number,
  ): Promise<WrittenTemplate & { charts: ChartedBlock[] }> {
    if (!isTemplateId(choice)) throw new PaneInputError(`There is no template "${choice}".`);
    const template = await this.template(choice, chosenCompSetId);
    const written = await this.runExcel((context) => writeTemplate(context, template));
    const charts = await chartTemplateBlocks(
      this.runExcel,
      written.sheetName,
      template.charts ?? [],
      this.wait,
      chartAsOf,
    );
    return { ...written, charts };
  }

  private async template(id: TemplateId, chosenCompSetId?: number): Promise<SheetTemplate> {
    if (id === "market-comparison") return marketComparison();
    const compSet = await this.compSet(chosenCompSetId);
    const propertyIds = compSet.attributes.property_ids.map(Number);
    if (propertyIds.length === 0) {
      throw new PaneInputError(`Comp set ${compSet.id} has no properties: choose another in Comp sets.`);
    }
    if (id === "comp-set-survey") {
      return compSetSurvey({
        compSetId: Number(compSet.id),
        propertyIds: propertyIds.slice(0, SURVEY_PROPERTIES),
        propertyCount: propertyIds.length,
      });
    }
    const subjectIds = compSet.attributes.subject_property_ids.map(Number);
    if (id === "rent-comps") {
      // The template compares a subject with its comps: a comp set without one has nothing to compare.
      const subjectId = subjectIds[0];
      if (subjectId === undefined) {
        throw new PaneInputError(
          `Comp set ${compSet.id} has no subject property to compare with its comps: choose another in Comp sets.`,
        );
      }
      return rentComps({ compSetId: Number(compSet.id), subjectId, propertyCount: propertyIds.length });
    }
    if (id === "rent-projection") {
      return rentProjection({ propertyId: subjectIds[0] ?? (propertyIds[0] as number) });
    }
    return propertyForecast({ propertyId: propertyIds[0] as number, today: this.today() });
  }

  private async compSet(chosenId?: number) {
    const { data, accountId } = this.session.requireSignedIn();
    const sets = (await data.read(COMP_SETS, {}, { accountId })).value.data;
    const chosen = sets.find((set) => Number(set.id) === chosenId) ?? sets[0];
    if (!chosen) {
      throw new PaneInputError(
        "This account has no comp sets to start from: the market comparison needs none.",
      );
    }
    return chosen;
  }
}

/** The status line after a template is written. */
export function templateSummary(written: WrittenTemplate & { charts?: readonly ChartedBlock[] }): string {
  const formulas = written.formulaCount === 1 ? "RENT formula" : "RENT formulas";
  const worksheet = written.worksheetFormulaCount;
  const plain =
    worksheet === 0 ? "" : ` and ${worksheet} Excel formula${worksheet === 1 ? "" : "s"} over them`;
  const charts = (written.charts ?? []).map((chart) =>
    "chartName" in chart
      ? ` The chart "${chart.chartName}" shows its block at ${chart.at}.`
      : ` No chart: ${chart.problem}.`,
  );
  return `Added the sheet "${written.sheetName}" with ${written.formulaCount} ${formulas}${plain} that refer to its input cells.${charts.join("")}`;
}
