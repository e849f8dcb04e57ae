import { checkNotice, probeLine, reportLines } from "../api/connectionCheck";
import type { ConnectionCheckController } from "./connectionCheckController";
import { element, whileBusy, type StatusLine } from "./dom";
import type { SignInForm } from "./signInController";

function listItem(text: string, className: string): HTMLLIElement {
  const item = document.createElement("li");
  item.textContent = text;
  item.className = className;
  return item;
}

/** The "Check connection" button of the sign-in area and the report it fills, line by line as answers come. */
export function wireConnectionPanel(
  controller: ConnectionCheckController,
  readForm: () => SignInForm,
  status: StatusLine,
): void {
  const button = element<HTMLButtonElement>("check-connection-button");
  const list = element<HTMLUListElement>("connection-report");
  button.addEventListener("click", () => {
    void whileBusy(button, status, async () => {
      const form = readForm();
      const target = controller.target(form);
      list.replaceChildren(listItem(checkNotice(target.serviceUrl), "notice-line"));
      status.show(checkNotice(target.serviceUrl));
      const { report } = await controller.run(form, {
        onProbe: (probe) => list.append(listItem(probeLine(probe), `probe probe-${probe.outcome}`)),
      });
      for (const line of reportLines(report).slice(report.probes.length))
        list.append(listItem(line, "summary-line"));
      const failed = report.probes.filter(
        (probe) => probe.outcome === "refused" || probe.outcome === "unreachable",
      );
      status.show(
        failed.length === 0
          ? `Connection check: every endpoint family asked answered (${report.requestsSent} requests).`
          : `Connection check: ${failed.map((probe) => probe.family).join(", ")} failed; the list below says why.`,
      );
    });
  });
}
