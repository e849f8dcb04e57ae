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

// Where the real office.js ran before the stand-in (the preview's realOfficeJs), it would take the frame, which
// it finds framed by no Office host, to about:blank once its scripts load; OsfOptOut is the one global it
// checks to leave the frame alone (office.debug.js). The stand-in then plays the host in its place.
if ("OSF" in window) Object.assign(window, { OsfOptOut: true });

installWebView(window, host);
Object.assign(window, {
  Office: officeNamespace(host),
  Excel: excelNamespace(host),
  CustomFunctions: customFunctionsNamespace(host),
});
