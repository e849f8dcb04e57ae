/**
 * Every Content-Security-Policy violation a browser context's pages report, however they report it: the
 * `securitypolicyviolation` event (enforced and report-only policies alike, in every frame, from before the
 * page's first script) and the console error Chromium writes for each refusal ("Refused to …", "Applying
 * inline style violates …", "Framing '…' violates …").
 */
import type { BrowserContext, ConsoleMessage } from "playwright-core";

export interface CspViolation {
  /** "event" for a securitypolicyviolation event, "console" for a console message. */
  via: "event" | "console";
  /** What was refused and under which directive, as the browser put it. */
  text: string;
}

/** The name the init script reports events under (a binding the page calls). */
const REPORT_BINDING = "__reportCspViolation";

/** The console messages Chromium writes when a policy refuses something. */
const CSP_CONSOLE_MESSAGE = /Content Security Policy|Content-Security-Policy/i;

export interface CspViolationRecorder {
  readonly violations: readonly CspViolation[];
}

/** Starts recording for every page the context opens from now on. */
export async function recordCspViolations(context: BrowserContext): Promise<CspViolationRecorder> {
  const violations: CspViolation[] = [];
  await context.exposeBinding(REPORT_BINDING, (_source, text: string) => {
    violations.push({ via: "event", text });
  });
  await context.addInitScript((binding: string) => {
    document.addEventListener(
      "securitypolicyviolation",
      (event) => {
        const report = (window as unknown as Record<string, (text: string) => void>)[binding];
        report?.(
          `${event.disposition} ${event.effectiveDirective}: ${event.blockedURI || "(inline)"} ` +
            `from ${event.sourceFile || event.documentURI}:${event.lineNumber}` +
            (event.sample ? ` "${event.sample}"` : ""),
        );
      },
      true,
    );
  }, REPORT_BINDING);
  const onConsole = (message: ConsoleMessage) => {
    if (CSP_CONSOLE_MESSAGE.test(message.text())) violations.push({ via: "console", text: message.text() });
  };
  context.on("console", onConsole);
  return { violations };
}
