import { createHmac, randomBytes } from 'node:crypto';

/**
 * A new endpoint's signing secret: 64 hex characters. Receivers key HMAC-SHA256 with the secret's UTF-8 bytes as
 * given (no `whsec_` decoding), which is also what the Standard Webhooks libraries do with `format: "raw"`.
 */
export function newSigningSecret(): string {
  return randomBytes(32).toString('hex');
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`: the branded signature and Standard Webhooks' `v1` alike. */
export function signature(key: Buffer, messageId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export interface SignedMessage {
  headers: Record<string, string>;
  body: string;
}

/**
 * The headers of one attempt (`secret` as text, or as its UTF-8 bytes): the branded set (`<prefix>-Webhook-*`) and
 * the same id, timestamp and signature under the Standard Webhooks names. The timestamp is this attempt's wall-clock time (receivers compare
 * it with their own clock), never the sandbox's business time.
 */
export function signMessage(
  prefix: string,
  secret: string | Buffer,
  messageId: string,
  body: string,
  nowMs: number = Date.now(),
): SignedMessage {
  const timestamp = Math.floor(nowMs / 1000);
  const key = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
  const signed = signature(key, messageId, timestamp, body);
  return {
    body,
    headers: {
      'user-agent': `${prefix}-Webhooks/1.0`,
      'content-type': 'application/json; charset=utf-8',
      [`${prefix}-Webhook-ID`]: messageId,
      [`${prefix}-Webhook-Timestamp`]: String(timestamp),
      [`${prefix}-Webhook-Signature`]: signed,
      'webhook-id': messageId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signed,
    },
  };
}

export interface EnvelopeSource {
  messageId: string;
  eventType: string;
  occurredAt: Date;
  resourceId: string;
  resourceType: string;
}

/** The body: a thin reference to the resource (receivers refetch it). Same bytes on every attempt of a delivery. */
export function envelope(source: EnvelopeSource): string {
  return JSON.stringify({
    id: source.messageId,
    type: source.eventType,
    created: Math.floor(source.occurredAt.getTime() / 1000),
    apiVersion: 'v2',
    data: { object: { id: source.resourceId, resourceType: source.resourceType } },
  });
}
