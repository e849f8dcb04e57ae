/**
 * The person's default browser, as `Office.context.ui.openBrowserWindow` opens it: a separate program that is
 * given only the address, none of the pane's headers, cookies or storage (Office.UI.openBrowserWindow,
 * docs/hosts.md). The stand-in hands every address to it (test/host/standin/office.ts); here it is a request
 * from Node, so a link that needs the pane's Authorization header fails as it fails in the person's browser.
 */
import type { BrowserContext } from "playwright-core";
import { DEFAULT_BROWSER_GLOBAL } from "../../host/standin/hostBridge";

/** What the default browser got for one address it was opened at. */
export interface BrowserVisit {
  url: string;
  status: number;
  body: string;
}

export interface DefaultBrowser {
  /** Every address opened so far, with what it answered, in order. */
  readonly visits: BrowserVisit[];
  /** Resolves once `count` visits have been answered. */
  visited(count: number): Promise<BrowserVisit[]>;
}

/** Gives every page of `context` the default browser the stand-in opens addresses in. */
export async function installDefaultBrowser(context: BrowserContext): Promise<DefaultBrowser> {
  const visits: BrowserVisit[] = [];
  const waiting = new Set<() => void>();
  await context.exposeBinding(DEFAULT_BROWSER_GLOBAL, async (_source, url: string) => {
    const response = await fetch(url, { redirect: "follow" });
    visits.push({ url, status: response.status, body: await response.text() });
    for (const wake of waiting) wake();
  });
  return {
    visits,
    visited: (count) =>
      new Promise((resolve) => {
        const check = () => {
          if (visits.length < count) return;
          waiting.delete(check);
          resolve(visits);
        };
        waiting.add(check);
        check();
      }),
  };
}
