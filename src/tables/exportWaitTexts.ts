/**
 * What a RENT.HISTORY cell shows while its export job is under way. A cell left showing one of them when the
 * runtime went away (a pane reload, Excel closed) never got its table: a new sign-in enters it again, and the
 * job it waited for is followed, not submitted again.
 */
export const EXPORT_SUBMITTING = "export submitting";

/** Before the job: the property names the cell was given are being looked up. */
export const FINDING_PROPERTIES = "finding properties by name";

export function exportRunning(wait: string): string {
  return `export running, ${wait}`;
}

export function isExportWaitText(value: unknown): boolean {
  return (
    typeof value === "string" &&
    (value === EXPORT_SUBMITTING || value === FINDING_PROPERTIES || value.startsWith(exportRunning("")))
  );
}
