export type PaneTheme = "light" | "dark";

/** Relative luminance of a "#rrggbb" colour (WCAG's formula), or undefined for anything else. */
function luminance(colour: string): number | undefined {
  const match = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour.trim());
  if (!match) return undefined;
  const [r, g, b] = match.slice(1).map((hex) => {
    const channel = parseInt(hex, 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The theme of Office's own panes: from `Office.context.officeTheme` where the host gives one (Excel on
 * Windows and Mac), else the system's light or dark setting (Excel on the web gives no Office theme).
 */
export function officeThemeOf(officeBackground: string | undefined, systemPrefersDark: boolean): PaneTheme {
  const background = officeBackground === undefined ? undefined : luminance(officeBackground);
  if (background !== undefined) return background < 0.5 ? "dark" : "light";
  return systemPrefersDark ? "dark" : "light";
}
