import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ProcessorNotification } from '../card-connector.js';
import { avsOf, fromAdyenReference } from './adyen-wire.js';

// Adyen's standard notifications (Webhooks-v1.json): a message of items, each signed with the merchant account's HMAC
// key; the message itself comes with HTTP Basic credentials. docs/connectors.md, "Notifications".

export interface AdyenNotificationItem {
  additionalData?: Record<string, string>;
  amount: { currency: string; value: number };
  eventCode: string;
  eventDate: string;
  merchantAccountCode: string;
  merchantReference: string;
  originalReference?: string;
  paymentMethod?: string;
  pspReference: string;
  reason?: string;
  success: string;
}

/** A message's items, or why it is not one (a 400: nothing is recorded). */
export function notificationItems(body: unknown): AdyenNotificationItem[] | string {
  const items = (body as { notificationItems?: unknown } | null)?.notificationItems;
  if (!Array.isArray(items) || items.length === 0) return 'A notification message has notificationItems.';
  const out: AdyenNotificationItem[] = [];
  for (const wrapper of items) {
    const item = (wrapper as { NotificationRequestItem?: Partial<AdyenNotificationItem> } | null)
      ?.NotificationRequestItem;
    if (
      !item ||
      typeof item.pspReference !== 'string' ||
      typeof item.eventCode !== 'string' ||
      typeof item.merchantReference !== 'string' ||
      typeof item.merchantAccountCode !== 'string' ||
      typeof item.success !== 'string' ||
      typeof item.amount?.value !== 'number' ||
      !Number.isInteger(item.amount.value) ||
      typeof item.amount.currency !== 'string'
    ) {
      return 'Each notification item has pspReference, eventCode, merchantReference, merchantAccountCode, success and amount.';
    }
    out.push(item as AdyenNotificationItem);
  }
  return out;
}

/** Adyen's HMAC signature of an item: HMAC-SHA256 under the hex key over its fields joined by colons, base64. */
export function hmacSignature(item: AdyenNotificationItem, hexKey: string): string {
  const signed = [
    item.pspReference,
    item.originalReference ?? '',
    item.merchantAccountCode,
    item.merchantReference,
    String(item.amount.value),
    item.amount.currency,
    item.eventCode,
    item.success,
  ].join(':');
  return createHmac('sha256', Buffer.from(hexKey, 'hex')).update(signed, 'utf8').digest('base64');
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The message's Basic credentials are one usable version's (the current, or one inside its overlap). */
export function basicAuthMatches(header: string | undefined, versions: ReadonlyArray<Record<string, string>>): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!match) return false;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const [user, password] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
  return versions.some(
    (v) => sameSecret(user, v.notificationUsername ?? '') && sameSecret(password, v.notificationPassword ?? ''),
  );
}

/** Every item is signed by a usable version's HMAC key, for the processor's merchant account. */
export function itemsAreSigned(
  items: readonly AdyenNotificationItem[],
  versions: ReadonlyArray<Record<string, string>>,
  merchantAccount: string,
): boolean {
  return items.every((item) => {
    if (item.merchantAccountCode !== merchantAccount) return false;
    const given = item.additionalData?.hmacSignature;
    if (!given) return false;
    return versions.some((v) => v.hmacKey !== undefined && sameSecret(given, hmacSignature(item, v.hmacKey)));
  });
}

const KINDS: Readonly<Record<string, ProcessorNotification['kind']>> = {
  AUTHORISATION: 'authorisation',
  AUTHORISATION_ADJUSTMENT: 'authorisation-adjustment',
  CAPTURE: 'capture',
  CAPTURE_FAILED: 'capture-failed',
  CANCELLATION: 'cancellation',
  CANCEL_OR_REFUND: 'cancel-or-refund',
  REFUND: 'refund',
  REFUND_FAILED: 'refund-failed',
  TECHNICAL_CANCEL: 'technical-cancel',
  CHARGEBACK: 'chargeback',
};

/** An item as what it means to Tessera (a notification the payments core applies). */
export function processorNotification(item: AdyenNotificationItem): ProcessorNotification {
  const extra = item.additionalData ?? {};
  return {
    kind: KINDS[item.eventCode] ?? 'other',
    eventCode: item.eventCode,
    success: item.success === 'true',
    reference: fromAdyenReference(item.merchantReference),
    processorReference: item.pspReference,
    originalProcessorReference: item.originalReference ?? null,
    amountCents: item.amount.value,
    currency: item.amount.currency,
    reason: item.reason && item.reason !== 'null' ? item.reason : null,
    eventDate: item.eventDate,
    ...(extra.authCode ? { authCode: extra.authCode } : {}),
    ...(extra.avsResult ? { avs: avsOf(extra.avsResult) } : {}),
  };
}
