/**
 * Writes the generated parts of docs/functions.md: under each `## RENT.X` heading, after its first paragraph,
 * the function's arguments as its JSDoc states them (the metadata Excel shows, read by the same
 * custom-functions-metadata the build uses, its placeholders rendered by the same scripts/functionHelp.ts); and at the end, every field of the records the functions show,
 * from the field catalogue generated from the contract (`src/api/fieldCatalogue.ts`). The prose around them is
 * written by hand. `npm run generate:docs` rewrites the file; test/layout/functionReference.test.ts fails when
 * it is stale, and when a function has no section.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generateCustomFunctionsMetadata } from "custom-functions-metadata";
import { FIELD_CATALOGUE, type CatalogueRecord, type FieldFacts } from "../src/api/fieldCatalogue";
import { renderMetadata } from "./functionHelp";

const root = path.resolve(__dirname, "..");
export const FUNCTION_REFERENCE_PATH = path.join(root, "docs", "functions.md");

const ARGUMENTS_START = "<!-- arguments: generated from the function's JSDoc by npm run generate:docs -->";
const ARGUMENTS_END = "<!-- /arguments -->";
const FIELDS_START = "<!-- fields: generated from src/api/fieldCatalogue.ts by npm run generate:docs -->";
const FIELDS_END = "<!-- /fields -->";

export interface FunctionMetadata {
  id: string;
  parameters: { name: string; description?: string; optional?: boolean }[];
  options?: { stream?: boolean; cancelable?: boolean; requiresAddress?: boolean };
}

/**
 * The metadata of every RENT function, from the files the build reads (`src/functions/*Functions.ts`), with the
 * help text's placeholders rendered as the build renders them (scripts/functionHelp.ts).
 */
export async function functionsMetadata(): Promise<FunctionMetadata[]> {
  const folder = path.join(root, "src", "functions");
  const files = readdirSync(folder)
    .filter((file) => file.endsWith("Functions.ts"))
    .sort()
    .map((file) => path.join(folder, file));
  const result = await generateCustomFunctionsMetadata(files);
  if (result.errors.length > 0) throw new Error(`Custom functions metadata: ${result.errors.join("; ")}`);
  return renderMetadata(JSON.parse(result.metadataJson) as { functions: FunctionMetadata[] }).functions;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function argumentsBlock(fn: FunctionMetadata): string {
  const lines =
    fn.parameters.length === 0
      ? ["No arguments."]
      : [
          "Arguments:",
          "",
          ...fn.parameters.map(
            (parameter) =>
              `- \`${parameter.optional ? `[${parameter.name}]` : parameter.name}\`: ${oneLine(parameter.description ?? "")}`,
          ),
        ];
  return [ARGUMENTS_START, "", ...lines, "", ARGUMENTS_END].join("\n");
}

/** The records the functions show, with the function that shows each. */
const RECORD_TITLES: Record<CatalogueRecord, string> = {
  property: "Property fields (`RENT.PROPERTY`)",
  market: "Market metrics (`RENT.MARKET`)",
  unit: "Unit fields (`RENT.UNITS`)",
  survey: "Market survey columns (`RENT.SURVEY`)",
  surveyAverage: "The market survey's comp average row (`RENT.SURVEY`)",
  floorPlan: "Floor plan fields (`RENT.FLOORPLANS`)",
  exportProperty: "Property export columns (`RENT.HISTORY`, property bulk exports)",
  exportUnit: "Unit export columns (units bulk exports)",
  exportFloorPlan: "Floor plan export columns (floor plans bulk exports)",
  propertyForecast: "Property forecast fields (`RENT.FORECAST`)",
  boundaryForecast: "Market forecast fields (`RENT.GEOFORECAST`)",
};

function cell(text: string): string {
  return text.replace(/\|/g, "\\|");
}

function fieldRow(name: string, facts: FieldFacts): string {
  const sent = facts.sentAs === undefined ? "" : ` (sent as ${facts.sentAs})`;
  const unit = `${facts.unit}${sent}${facts.keyed ? ", by key" : ""}`;
  return `| \`${name}\` | ${cell(facts.label)} | ${unit} | ${facts.tier ?? "-"} |`;
}

function fieldsBlock(): string {
  const records = Object.entries(FIELD_CATALOGUE) as [CatalogueRecord, Record<string, FieldFacts>][];
  const sections = records.map(([record, fields]) =>
    [
      `### ${RECORD_TITLES[record]}`,
      "",
      '| Id | Name (`"names"` headers) | Unit | Plan it needs |',
      "| --- | --- | --- | --- |",
      ...Object.entries(fields).map(([name, facts]) => fieldRow(name, facts)),
    ].join("\n"),
  );
  return [
    FIELDS_START,
    "",
    "## Fields",
    "",
    "Every field of the records the functions show, in the contract's order: its id (what `fields`, `metric` and",
    "`columns` take), its readable name, its unit (`x-unit`; a percent is a fraction under Excel's `%` format,",
    "whatever scale the service sent it in) and the plan it needs beyond its function's own (`x-tier`; `-`: none).",
    'A unit ending "by key" is an object of values keyed by unit type, fee kind or amenity category: the',
    "function's section says how it spills.",
    "",
    sections.join("\n\n"),
    "",
    FIELDS_END,
  ].join("\n");
}

/** Removes a generated block (and the blank line before it) wherever it is. */
function withoutBlock(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  if (from < 0) return text;
  const to = text.indexOf(end, from);
  if (to < 0) throw new Error(`docs/functions.md has "${start}" without "${end}".`);
  return text.slice(0, from).replace(/\n+$/, "\n") + text.slice(to + end.length).replace(/^\n+/, "\n");
}

/** docs/functions.md as it should be: `current` with every generated block written again. */
export async function functionReference(current: string): Promise<string> {
  const metadata = await functionsMetadata();
  let text = current;
  while (text.includes(ARGUMENTS_START)) text = withoutBlock(text, ARGUMENTS_START, ARGUMENTS_END);
  text = withoutBlock(text, FIELDS_START, FIELDS_END);

  const missing: string[] = [];
  for (const fn of metadata) {
    const heading = `\n## RENT.${fn.id}\n`;
    const at = text.indexOf(heading);
    if (at < 0) {
      missing.push(`RENT.${fn.id}`);
      continue;
    }
    // After the section's first paragraph, which states the signature.
    const paragraphStart = at + heading.length + 1;
    const paragraphEnd = text.indexOf("\n\n", paragraphStart);
    const insertAt = paragraphEnd < 0 ? text.length : paragraphEnd;
    text = `${text.slice(0, insertAt)}\n\n${argumentsBlock(fn)}${text.slice(insertAt)}`;
  }
  if (missing.length > 0) throw new Error(`docs/functions.md has no section for ${missing.join(", ")}.`);

  text = `${text.replace(/\n+$/, "")}\n\n${fieldsBlock()}\n`;
  // Formatted by prettier's own command line, as `npm run format` would (its API loads ES modules, which jest
  // cannot without a flag).
  return execFileSync(
    process.execPath,
    [
      path.join(root, "node_modules", "prettier", "bin", "prettier.cjs"),
      "--stdin-filepath",
      FUNCTION_REFERENCE_PATH,
    ],
    { cwd: root, input: text, encoding: "utf8" },
  );
}

async function main(): Promise<void> {
  const current = readFileSync(FUNCTION_REFERENCE_PATH, "utf8");
  writeFileSync(FUNCTION_REFERENCE_PATH, await functionReference(current));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
