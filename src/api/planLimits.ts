import { NARRATIVE_SALES_CUT } from "./contractLimits";
import { ApiError, type ApiErrorDetails } from "./errors";
import { CONTRACT_OPERATIONS } from "./contractOperations";
import { OPERATION_TIERS } from "./fieldCatalogue";
import { catalogueFields } from "./fieldFacts";

/**
 * What the caller's plan (access tier) leaves out, said in the cell that asks for it: "#N/A Not in your plan
 * (pro)", never a blank that reads as missing data or as zero. The tiers come from the contract (`x-tier` of a
 * field, `x-required-tier` of an operation).
 */
export function notInPlan(tier: string, what: string, details?: ApiErrorDetails): ApiError {
  return new ApiError("forbidden", notInPlanText(tier, what), details);
}

function notInPlanText(tier: string, what: string): string {
  return `Not in your plan (${tier}): ${what}.`;
}

/**
 * A narrative's sales section as a cell shows it. Below its tier the service cuts it, ending in "..." (the contract's
 * `x-truncation-marker`, api-notes third pass), which alone reads as the whole text: the cell adds that the rest is
 * not in the plan.
 */
export function salesSectionText(text: string): string {
  const { tier, marker } = NARRATIVE_SALES_CUT;
  return text.endsWith(marker) ? `${text} (${notInPlanText(tier, "the rest of this section")})` : text;
}

const templates = Object.entries(OPERATION_TIERS).map(([operation, tier]) => {
  const [method = "", path = ""] = operation.split(" ");
  const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`);
  const summary = CONTRACT_OPERATIONS.find((row) => row.method === method && row.path === path)?.summary;
  return { method, path, pattern, tier, summary: summary ?? "this request" };
});

/**
 * The tier above base that the operations of a request path (relative to the contract's `/v1`) need, and what
 * they do in words (the contract's summary). The path is enough: the answer does not carry the request's method,
 * and every operation of such a path needs the same tier.
 */
export function tierOfPath(path: string): { tier: string; operation: string; summary: string } | undefined {
  const found = templates.find((entry) => entry.pattern.test(path));
  return found && { tier: found.tier, operation: `${found.method} ${found.path}`, summary: found.summary };
}

/**
 * A 403 of an operation above the base tier, said as the plan it needs; any other error as it is. The operation is
 * named in words ("Details of many properties"), never by its path: a cell or the pane shows this to a person.
 */
export function inPlanTerms(error: ApiError, path: string): ApiError {
  if (error.kind !== "forbidden") return error;
  const needed = tierOfPath(path);
  if (needed === undefined) return error;
  const said = error.details.serviceMessage ? ` (the service said: ${error.details.serviceMessage})` : "";
  return notInPlan(needed.tier, `${needed.summary} needs the ${needed.tier} tier${said}`, error.details);
}

const TIERED_MARKET_FIELDS = Object.entries(catalogueFields("market"))
  .filter(([, facts]) => facts.tier !== undefined)
  .map(([field]) => field);

/**
 * Whether a market record is the limited form the service gives callers below pro (api-notes: "limited data, not
 * an error"): every field with an `x-tier` null. A pro caller's record always has some (unit counts, population), so a
 * market's genuinely missing figure stays a blank for pro, and is a plan message only for the limited form.
 */
export function isLimitedMarket(record: Readonly<Record<string, unknown>>): boolean {
  return TIERED_MARKET_FIELDS.every((field) => record[field] === null || record[field] === undefined);
}
