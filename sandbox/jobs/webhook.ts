import { createHmac } from "node:crypto";

export const SIGNATURE_HEADER = "X-Signature-SHA256";
export const ATTEMPT_HEADER = "X-Delivery-Attempt";

export function signPayload(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export interface WebhookSettings {
  secret: string;
  maxAttempts: number;
  baseDelayMs: number;
}

export interface DeliveryResult {
  delivered: boolean;
  attempts: number;
}

/**
 * POSTs a JSON payload with its HMAC-SHA256 signature; a non-2xx answer or a network error is
 * retried after 1x, 2x, 4x ... the base delay. `wait` is injectable so close() can cut retries short.
 */
export async function deliverWebhook(
  url: string,
  payload: unknown,
  settings: WebhookSettings,
  wait: (ms: number) => Promise<boolean>,
): Promise<DeliveryResult> {
  const body = JSON.stringify(payload);
  const signature = signPayload(settings.secret, body);
  for (let attempt = 1; attempt <= settings.maxAttempts; attempt++) {
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          [SIGNATURE_HEADER]: signature,
          [ATTEMPT_HEADER]: String(attempt),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      if (response.ok) return { delivered: true, attempts: attempt };
    } catch {
      // A refused or dropped connection counts as a failed attempt, like a non-2xx answer.
    }
    if (attempt < settings.maxAttempts && !(await wait(settings.baseDelayMs * 2 ** (attempt - 1)))) {
      return { delivered: false, attempts: attempt };
    }
  }
  return { delivered: false, attempts: settings.maxAttempts };
}
