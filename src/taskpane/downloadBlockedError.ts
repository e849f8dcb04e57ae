/**
 * The browser could not read the export file from the download host (object storage that refuses
 * cross-origin reads). The file is fine: the person can open the link in a browser, save it, and load it
 * with "Load from file".
 */
export class DownloadBlockedError extends Error {
  override readonly name = "DownloadBlockedError";

  constructor(
    /** The signed download link, when the pane could learn it; undefined when the browser hid the redirect. */
    readonly link: string | undefined,
  ) {
    super(
      link === undefined
        ? "The export is ready, but this browser may not read it from the download host. Download the file from the service's website, then choose Load from file."
        : "The export is ready, but this browser may not read it from the download host. Choose Open download link to save the file, then Load from file to put it in a sheet.",
    );
  }
}
