import { hostSupports } from "../excel/requirementSets";

/**
 * Desktop Excel's web views (WebView2 on Windows, WKWebView on Mac) save nothing for a blob link with
 * `download`, and Office asks add-ins to open the person's browser with Office.context.ui.openBrowserWindow
 * rather than `window.open`. That API (OpenBrowserWindowApi 1.1) exists on desktop and iPad only, so where the
 * host reports it the pane hands files and links to the browser; in Excel on the web (a browser tab) it does
 * both itself.
 */
export function opensBrowserWindows(): boolean {
  return hostSupports("OpenBrowserWindowApi", "1.1");
}

/** Opens a link in the person's browser. */
export function openInBrowser(link: string): void {
  if (opensBrowserWindows()) Office.context.ui.openBrowserWindow(link);
  else window.open(link, "_blank", "noopener");
}

/** Hands bytes to the browser's own "save" (an object URL on a temporary link): in a browser only. */
export function saveBytes(bytes: Uint8Array<ArrayBuffer>, fileName: string): void {
  const url = URL.createObjectURL(new Blob([bytes]));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
