/**
 * Whether the host running the add-in supports an Office.js requirement set beyond those the manifest
 * declares (SharedRuntime 1.1, ExcelApi 1.12): every call outside them is guarded by this. Asked each time,
 * not once at load: the runtime loads before Office is ready, and tests change the host.
 */
export function hostSupports(name: string, minVersion: string): boolean {
  if (typeof Office === "undefined") return false;
  try {
    return Office.context.requirements.isSetSupported(name, minVersion);
  } catch {
    // Office.context is not there until Office is initialised; until then, nothing beyond the manifest.
    return false;
  }
}
