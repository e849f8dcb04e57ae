import { webDarkTheme, webLightTheme } from "@fluentui/tokens";
import { setTheme } from "@fluentui/web-components";
import { officeThemeOf, type PaneTheme } from "./themeChoice";

function currentOfficeBackground(): string | undefined {
  try {
    return Office.context?.officeTheme?.bodyBackgroundColor;
  } catch {
    // Outside Office (a plain browser) there is no context to ask.
    return undefined;
  }
}

/** Applies a theme: Fluent's tokens for its elements, and `data-theme` for the page's own CSS. */
export function applyTheme(theme: PaneTheme): void {
  setTheme(theme === "dark" ? webDarkTheme : webLightTheme);
  document.documentElement.dataset.theme = theme;
}

/** Follows the Office theme, and the system's setting when it changes where Office gives none. */
export function followOfficeTheme(): void {
  const system = window.matchMedia("(prefers-color-scheme: dark)");
  const update = () => applyTheme(officeThemeOf(currentOfficeBackground(), system.matches));
  update();
  system.addEventListener("change", update);
}
