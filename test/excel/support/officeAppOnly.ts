/**
 * office-addin-mock reads one thing of office-addin-manifest: its OfficeApp enum (which host a mock object stands
 * for). Requiring the package loads its whole manifest toolchain (@microsoft/app-manifest, validators), about a
 * quarter of a second of CPU in every jest test file that uses the mock workbook, since jest loads modules afresh
 * per file. Under jest the mock gets the enum's own module instead (the same values, nothing else); a test file
 * that needs the real package as well would find only the enum there and should import it before this module.
 * Outside jest (the benchmarks, under tsx) the real package loads.
 *
 * Imported by ./mockExcel.ts before office-addin-mock: ES imports run in order.
 */
if (typeof jest !== "undefined")
  jest.doMock("office-addin-manifest", () => jest.requireActual("office-addin-manifest/lib/officeApp"));

export {};
