/**
 * What the functions' JSDoc tells Excel, checked where a tag is easy to forget: the pane's as-of of a cell, and
 * the freeze comment built from it, exist only for calls Excel gave their address (`@requiresAddress`), which
 * Excel does not give a streaming function.
 */
import { functionsMetadata } from "../../scripts/generateFunctionReference";

describe("the functions' metadata", () => {
  it("asks Excel for the caller's address in every function but the streaming ones", async () => {
    const metadata = await functionsMetadata();
    const untagged = metadata
      .filter((fn) => !fn.options?.stream && !fn.options?.requiresAddress)
      .map((fn) => `RENT.${fn.id}`);
    expect(untagged).toEqual([]);
  });
});
