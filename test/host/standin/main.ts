/**
 * Loaded in the add-in's frame in place of Office.js (the preview server rewrites the script tag). It finds
 * the host page in the parent window and installs the globals the add-in's bundles expect, and the web view
 * of the host's profile.
 */
import { customFunctionsNamespace } from "./customFunctions";
import { excelNamespace } from "./excelApi";
import { HOST_BRIDGE_GLOBAL, type HostBridge } from "./hostBridge";
import { officeNamespace } from "./office";
import { installWebView } from "./webView";

const host = (window.parent as unknown as Record<string, HostBridge | undefined>)[HOST_BRIDGE_GLOBAL];
if (!host) {
  throw new Error(
    "The Office stand-in runs inside the preview's host page: open the preview's address instead.",
  );
}

// Where the real office.js ran before the stand-in (the preview's realOfficeJs), the preview set OsfOptOut before
// it (test/host/previewServer.ts), so it leaves the frame alone; the stand-in then plays the host in its place.

installWebView(window, host);
Object.assign(window, {
  Office: officeNamespace(host),
  Excel: excelNamespace(host),
  CustomFunctions: customFunctionsNamespace(host),
});
