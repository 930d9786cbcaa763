import type { Clock } from '../../platform/clock/clock.js';
import { newId } from '../../platform/crypto/ids.js';
import type { KeyEncryptionKey } from '../../platform/crypto/kek.js';
import type { AttemptOutcome, WebhookSender } from './sender.js';
import { type EnvelopeSource, envelope, type SignedMessage, signMessage } from './signing.js';
import type { AttemptRecord, ClaimedDelivery } from './webhooks.repo.js';

/** Waits before automatic attempts 2..7 (docs/webhooks.md): after failure n, wait RETRY_DELAYS_SECONDS[n-1]. */
export const RETRY_DELAYS_SECONDS = [60, 5 * 60, 30 * 60, 2 * 3600, 8 * 3600, 24 * 3600] as const;
export const MAX_AUTOMATIC_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

export function webhookSecretAad(endpointId: string): string {
  return `webhook-secret:${endpointId}`;
}

export interface AttemptDeps {
  clock: Clock;
  kek: KeyEncryptionKey;
  sender: WebhookSender;
  headerPrefix: string;
}

/**
 * Sends one attempt of a leased delivery and says what follows: delivered, the next automatic attempt on the
 * schedule, or failed for good after the seventh. A manual retry changes nothing about the schedule: it only delivers
 * (which ends the schedule) or leaves the delivery as it was.
 */
export async function attemptDelivery(
  deps: AttemptDeps,
  delivery: ClaimedDelivery,
  mode: 'automatic' | 'manual',
): Promise<AttemptRecord> {
  const { message, outcome } = await sendSigned(
    deps,
    {
      id: delivery.endpoint_id,
      secretSealed: delivery.secret_sealed,
      kekVersion: delivery.kek_version,
      url: delivery.url,
    },
    {
      messageId: delivery.id,
      eventType: delivery.event_type,
      occurredAt: delivery.occurred_at,
      resourceId: delivery.resource_id,
      resourceType: delivery.resource_type,
    },
  );
  const automaticAttempts = delivery.automatic_attempts + (mode === 'automatic' ? 1 : 0);
  let deliveryStatus: AttemptRecord['deliveryStatus'];
  let nextRetryAt: Date | null;
  if (outcome.delivered) {
    deliveryStatus = 'Delivered';
    nextRetryAt = null;
  } else if (mode === 'manual') {
    deliveryStatus = delivery.status;
    nextRetryAt = delivery.next_attempt_at;
  } else if (automaticAttempts >= MAX_AUTOMATIC_ATTEMPTS) {
    deliveryStatus = 'Failed';
    nextRetryAt = null;
  } else {
    deliveryStatus = 'Scheduled';
    nextRetryAt = new Date(deps.clock.nowMs() + RETRY_DELAYS_SECONDS[automaticAttempts - 1]! * 1000);
  }
  return {
    logId: newId(),
    deliveryId: delivery.id,
    deliveryCreatedAt: delivery.created_at,
    endpointId: delivery.endpoint_id,
    merchantId: delivery.merchant_id,
    partnerId: delivery.partner_id,
    endpointName: delivery.name,
    endpointUrl: delivery.url,
    messageId: delivery.id,
    eventType: delivery.event_type,
    isPing: false,
    isManual: mode === 'manual',
    attemptNumber: delivery.attempts + 1,
    automaticAttempts,
    deliveryStatus,
    nextRetryAt,
    ...exchangeLog(message, outcome),
    createdAt: deps.clock.now(),
  };
}

/** Signs one message with its endpoint's secret and posts it: the way every webhook message (pings too) leaves. */
export async function sendSigned(
  deps: AttemptDeps,
  endpoint: { id: string; secretSealed: Buffer; kekVersion: number; url: string },
  source: EnvelopeSource,
): Promise<{ message: SignedMessage; outcome: AttemptOutcome }> {
  const message = signMessage(deps.headerPrefix, signingKey(deps.kek, endpoint), source.messageId, envelope(source));
  return { message, outcome: await deps.sender.post(endpoint.url, message.headers, message.body) };
}

/** Opened endpoint secrets per key-encryption key, by endpoint, KEK version and sealed bytes (see signingKey). */
const openedSecrets = new WeakMap<KeyEncryptionKey, Map<string, Buffer>>();
const OPENED_SECRETS_KEPT = 1000;

/**
 * The endpoint's signing key (its secret's UTF-8 bytes). Opening it decrypts with the KEK, which cost about a twentieth
 * of a worker's CPU when done for every attempt; an opened secret is kept while its sealed bytes and KEK version are
 * what the delivery carries, so a rotated secret or KEK is opened afresh. A process signs with these keys anyway.
 */
function signingKey(kek: KeyEncryptionKey, endpoint: { id: string; secretSealed: Buffer; kekVersion: number }): Buffer {
  let opened = openedSecrets.get(kek);
  if (!opened) {
    opened = new Map();
    openedSecrets.set(kek, opened);
  }
  const id = `${endpoint.id}:${endpoint.kekVersion}:${endpoint.secretSealed.toString('base64')}`;
  let key = opened.get(id);
  if (!key) {
    key = kek.open(endpoint.secretSealed, webhookSecretAad(endpoint.id), endpoint.kekVersion);
    if (opened.size >= OPENED_SECRETS_KEPT) opened.clear();
    opened.set(id, key);
  }
  return key;
}

/** What the delivery log keeps of one exchange: its result, the request as sent and the response as captured. */
export function exchangeLog(message: SignedMessage, outcome: AttemptOutcome) {
  return {
    logStatus: outcome.delivered ? ('Success' as const) : ('Failure' as const),
    responseStatusCode: outcome.statusCode,
    durationMs: outcome.durationMs,
    errorMessage: outcome.errorMessage,
    requestHeaders: message.headers,
    requestBody: message.body,
    responseHeaders: outcome.responseHeaders,
    responseBody: outcome.responseBody,
  };
}
