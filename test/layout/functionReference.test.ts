/**
 * docs/functions.md is written by hand around generated parts: each function's arguments from its JSDoc (what
 * Excel shows) and every field from the contract's field catalogue. A JSDoc or contract change that is not
 * carried into the reference, or a function without a section, fails here.
 */
import { readFileSync } from "node:fs";
import { FUNCTION_REFERENCE_PATH, functionReference } from "../../scripts/generateFunctionReference";

describe("the function reference", () => {
  it("is what `npm run generate:docs` makes of the functions' metadata and the field catalogue today", async () => {
    const current = readFileSync(FUNCTION_REFERENCE_PATH, "utf8");
    expect(current).toBe(await functionReference(current));
  });
});
