import { createHmac, timingSafeEqual } from "node:crypto";

/** Signed download URLs are valid for 7 days, like the live service's pre-signed object-storage URLs. */
export const DOWNLOAD_URL_LIFETIME_SECONDS = 7 * 24 * 3600;

/** HMAC-SHA256 signatures over the job, the file and the expiry, keyed by a per-sandbox secret. */
export class DownloadSigner {
  constructor(private readonly key: Buffer) {}

  sign(jobId: string, fileName: string, expires: number): string {
    return createHmac("sha256", this.key).update(`${jobId}/${fileName}:${expires}`).digest("hex");
  }

  /** The path and query of a download link (to be appended to the download origin). */
  signedPath(jobId: string, fileName: string, expires: number): string {
    const signature = this.sign(jobId, fileName, expires);
    return `/download/${encodeURIComponent(jobId)}/${encodeURIComponent(fileName)}?expires=${expires}&signature=${signature}`;
  }

  verify(jobId: string, fileName: string, expires: number, signature: string): boolean {
    const expected = Buffer.from(this.sign(jobId, fileName, expires), "hex");
    const given = Buffer.from(signature, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
