import { officeThemeOf } from "../../src/taskpane/themeChoice";

describe("the pane's theme", () => {
  it("follows the Office theme's background where the host reports one", () => {
    expect(officeThemeOf("#1F1F1F", false)).toBe("dark");
    expect(officeThemeOf("#262626", false)).toBe("dark");
    expect(officeThemeOf("#FFFFFF", true)).toBe("light");
    expect(officeThemeOf("#E6E6E6", true)).toBe("light");
  });

  it("follows the system's light or dark setting where Office gives no theme", () => {
    expect(officeThemeOf(undefined, true)).toBe("dark");
    expect(officeThemeOf(undefined, false)).toBe("light");
    expect(officeThemeOf("not a colour", true)).toBe("dark");
  });
});
