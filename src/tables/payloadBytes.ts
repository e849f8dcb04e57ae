/**
 * Excel on the web rejects any single request or response over 5 MB (`RequestPayloadSizeLimitExceeded`,
 * `ResponsePayloadSizeLimitExceeded`), and Excel limits a custom function's payload to 5 MB as well
 * (docs/hosts.md gives the sources). A request is everything queued between two `context.sync()` calls,
 * serialized as JSON, so the writers estimate that JSON from the values themselves and sync before the
 * estimate would cross the budget; the readers and the functions size what comes back the same way.
 */

export const EXCEL_REQUEST_LIMIT_BYTES = 5_000_000;

/**
 * The share of the limit the writers fill with cell data: the rest covers what the estimate does not count
 * (object paths, addresses, method names of the batch) with a wide margin.
 */
export const DEFAULT_REQUEST_BUDGET_BYTES = 4_000_000;

// eslint-disable-next-line no-control-regex -- the ASCII range is the point
const NON_ASCII = /[^\u0000-\u007f]/;

/** Bytes of a string once UTF-8 encoded (the wire encoding), without allocating the encoding. */
export function utf8ByteLength(text: string): number {
  // Most payloads are plain ASCII; the native scan answers those without a per-character loop.
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 2; // a surrogate pair: 2 UTF-16 units become 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** Serialized size of a value as it travels in a request. */
export function jsonByteLength(value: unknown): number {
  return utf8ByteLength(JSON.stringify(value) ?? "");
}
