// The fake's notifications: made as Adyen makes them (an item per message, signed with HMAC-SHA256 under the
// merchant account's hex key over the documented fields, HTTP Basic on the message), checked against Adyen's
// published schema before they are sent, and delivered to Tessera until it answers `[accepted]`. Faults on demand:
// each message twice, held back and released in reverse order.
import { createHmac } from 'node:crypto';
import { request } from 'undici';
import { notificationErrors } from './adyen-contract.js';

export interface NotificationItem {
  additionalData: Record<string, string>;
  amount: { currency: string; value: number };
  eventCode: string;
  eventDate: string;
  merchantAccountCode: string;
  merchantReference: string;
  originalReference?: string;
  paymentMethod?: string;
  pspReference: string;
  reason: string;
  success: 'true' | 'false';
}

export interface NotifierCredentials {
  hmacKey: string;
  username: string;
  password: string;
}

/** The fake's own signing (written from Adyen's documentation, not from Tessera's code; a test checks both agree). */
export function signItem(item: Omit<NotificationItem, 'additionalData'>, hexKey: string): string {
  const fields = [
    item.pspReference,
    item.originalReference ?? '',
    item.merchantAccountCode,
    item.merchantReference,
    item.amount.value,
    item.amount.currency,
    item.eventCode,
    item.success,
  ];
  return createHmac('sha256', Buffer.from(hexKey, 'hex')).update(fields.join(':')).digest('base64');
}

export class FakeNotifier {
  /** Where to deliver: a URL, or a choice made at each attempt (the cluster test picks a live node). */
  url: string | (() => string | undefined) | undefined;
  /** Deliver every message twice. */
  duplicate = false;
  /** Deliver a message twice with this probability (with `random`). */
  duplicateRate = 0;
  random: () => number = Math.random;
  /** How many times a message is tried before the fake gives up (Adyen tries for days). */
  maxAttempts = 40;
  /** Keep messages until `release()`, which sends them newest first. */
  hold = false;
  readonly held: NotificationItem[] = [];
  /** Every item sent (unless `keepHistory` is off: see FakeAdyen.keepHistory). */
  readonly sent: NotificationItem[] = [];
  keepHistory = true;
  readonly violations: string[] = [];
  private inFlight = new Set<Promise<void>>();

  constructor(private credentials: NotifierCredentials) {}

  /** The credentials change (Tessera's operator rotated them; Adyen's side follows). */
  use(credentials: NotifierCredentials): void {
    this.credentials = credentials;
  }

  /** Signs and sends `item` (or holds it); resolves once Tessera accepted it. */
  notify(
    unsigned: Omit<NotificationItem, 'additionalData'> & { additionalData?: Record<string, string> },
  ): Promise<void> {
    const item: NotificationItem = {
      ...unsigned,
      additionalData: {
        ...(unsigned.additionalData ?? {}),
        hmacSignature: signItem(unsigned, this.credentials.hmacKey),
      },
    };
    if (this.hold) {
      this.held.push(item);
      return Promise.resolve();
    }
    const times = this.duplicate || (this.duplicateRate > 0 && this.random() < this.duplicateRate) ? 2 : 1;
    const deliveries = Array.from({ length: times }, () => this.deliver(item));
    return Promise.all(deliveries).then(() => undefined);
  }

  /** Sends what was held, in reverse order (Adyen does not keep order), each twice when `duplicate`. */
  async release(): Promise<void> {
    this.hold = false;
    const items = this.held.splice(0).reverse();
    for (const item of items) {
      for (let i = 0; i < (this.duplicate ? 2 : 1); i++) await this.deliver(item);
    }
  }

  /** How many deliveries are under way (not yet accepted). */
  get pending(): number {
    return this.inFlight.size;
  }

  /** Every delivery under way has been accepted. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private deliver(item: NotificationItem): Promise<void> {
    // The text sent is what is checked, parsed back as Tessera will parse it (and several times faster than checking
    // the item as built: objects made by spreading took a slow path through the compiled validators).
    const text = JSON.stringify({ live: 'false', notificationItems: [{ NotificationRequestItem: item }] });
    for (const problem of notificationErrors(item.eventCode, JSON.parse(text))) {
      this.violations.push(`notification ${item.eventCode}: ${problem}`);
    }
    const delivery = this.post(text).finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
    if (this.keepHistory) this.sent.push(item);
    return delivery;
  }

  private async post(message: string): Promise<void> {
    if (!this.url) throw new Error('The fake has no notification URL');
    const auth = Buffer.from(`${this.credentials.username}:${this.credentials.password}`).toString('base64');
    // Adyen retries until accepted; a bounded number of attempts keeps a broken test from hanging.
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      const url = typeof this.url === 'function' ? this.url() : this.url;
      try {
        if (!url) throw new Error('no node to deliver to');
        // undici's request, not fetch: fetch's web streams cost the fake as much CPU as Tessera spent on the message,
        // on the same two cores as the benchmark's server.
        const res = await request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Basic ${auth}` },
          body: message,
          headersTimeout: 5000,
          bodyTimeout: 5000,
        });
        const text = await res.body.text();
        if (res.statusCode === 200 && text === '[accepted]') return;
      } catch {
        // not up, or busy: try again
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(25 * attempt, 500)));
    }
    throw new Error('Tessera never accepted the notification');
  }
}
