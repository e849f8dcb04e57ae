import type { PlanSeen } from "../api/planSeen";
import type { Session } from "../session/session";
import { element } from "./dom";

/** The Account tab's plan line: the tier as the sign-in's answers show it, until one shows it, what will. */
export function planText(plan: PlanSeen): string {
  const seen = plan.plan;
  return seen === undefined
    ? "Plan: not known yet. The service names no plan; the first property, lookup or forecast formula shows it."
    : `Plan: ${seen} (as the service's answers show it).`;
}

/** Keeps the plan line of the signed-in section current as the sign-in's answers show more of the plan. */
export function wirePlanLine(session: Session): void {
  let stop: () => void = () => undefined;
  const follow = () => {
    stop();
    const plan = session.current?.client.plan;
    if (!plan) return;
    const show = () => (element("signed-in-plan").textContent = planText(plan));
    show();
    stop = plan.onChange(show);
  };
  session.onChange(follow);
  follow();
}
