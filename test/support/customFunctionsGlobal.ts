/**
 * Excel provides `CustomFunctions` as a global in the add-in's runtime. Under jest there is no Excel, so this
 * setup file installs the part the add-in uses, with the same shape: `new CustomFunctions.Error(code, message)`
 * and the `ErrorCode` values ("#VALUE!", "#N/A", ...).
 */
enum ErrorCode {
  invalidValue = "#VALUE!",
  notAvailable = "#N/A",
  divisionByZero = "#DIV/0!",
  invalidNumber = "#NUM!",
  nullReference = "#NULL!",
  invalidName = "#NAME?",
  invalidReference = "#REF!",
}

class CustomFunctionError extends Error {
  constructor(
    readonly code: ErrorCode,
    message?: string,
  ) {
    super(message);
  }
}

Object.assign(globalThis, { CustomFunctions: { Error: CustomFunctionError, ErrorCode } });
