import { element, whileBusy, type StatusLine } from "./dom";
import { templateSummary, type TemplatesController } from "./templatesController";

/** "New sheet from template": a picker of templates and one button. */
export function wireTemplatesPanel(controller: TemplatesController, status: StatusLine): void {
  const button = element<HTMLButtonElement>("template-button");
  button.addEventListener("click", () => {
    void whileBusy(button, status, async () => {
      const choice = element<HTMLSelectElement>("template-choice").value;
      const compSet = Number(element<HTMLSelectElement>("comp-set-picker").value);
      const written = await controller.create(
        choice,
        Number.isInteger(compSet) && compSet > 0 ? compSet : undefined,
      );
      status.show(templateSummary(written));
    });
  });
}
