// Verifying a webhook delivery (or a `tessera listen` forward, signed the same way): Standard Webhooks signatures
// (webhook-id, webhook-timestamp, webhook-signature) over the raw body, keyed by the endpoint's `hmacSecret` as it
// is (the raw form, not base64).
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export { WebhookVerificationError };

/** What every delivery's body holds (docs/webhooks.md): the event and the object it is about, to fetch. */
export interface WebhookEvent {
  /** The message id: the same on every attempt of one delivery (deduplicate on it). */
  id: string;
  type: string;
  /** Unix seconds. */
  created: number;
  apiVersion: string;
  data: { object: { id: string; resourceType: string } };
}

/**
 * The delivery's event once its signature and timestamp (within five minutes) check out; throws
 * WebhookVerificationError otherwise. `body` must be the raw bytes or text as received, not re-serialized JSON.
 */
export function verifyWebhook(
  secret: string,
  body: string | Buffer,
  headers: Record<string, string | string[] | undefined> | Headers,
): WebhookEvent {
  // No prototype: a header named like an Object method is an ordinary key.
  const plain = Object.create(null) as Record<string, string>;
  if (headers instanceof Headers) {
    headers.forEach((value, name) => {
      plain[name] = value;
    });
  } else {
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined) plain[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  const payload = typeof body === 'string' ? body : body.toString('utf8');
  return new Webhook(secret, { format: 'raw' }).verify(payload, plain) as WebhookEvent;
}
