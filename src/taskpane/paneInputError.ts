/** Something the person typed or picked that the pane cannot use; its message says what to change. */
export class PaneInputError extends Error {
  override readonly name = "PaneInputError";
}
