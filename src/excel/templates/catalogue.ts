/** The sheet templates the pane offers, by the id its picker uses. */
export const TEMPLATE_IDS = [
  "market-comparison",
  "comp-set-survey",
  "property-forecast",
  "rent-comps",
  "rent-projection",
] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

export function isTemplateId(value: string): value is TemplateId {
  return (TEMPLATE_IDS as readonly string[]).includes(value);
}
