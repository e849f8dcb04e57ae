/**
 * The Fluent UI Web Components the pane's start page uses, registered once. Each import defines one element
 * (`fluent-button`, ...); only these are bundled, so the start bundle stays small.
 */
import "@fluentui/web-components/button.js";
import "@fluentui/web-components/tab.js";
import "@fluentui/web-components/tablist.js";
import "@fluentui/web-components/text-input.js";
import "@fluentui/web-components/checkbox.js";
import "@fluentui/web-components/field.js";
import "@fluentui/web-components/radio.js";
import "@fluentui/web-components/radio-group.js";
