/**
 * Every event a webhook endpoint can subscribe to. Events have names in two sets (docs/reference-data.md): set A
 * (`transaction.*`, the names our outbox records) and set B (`payment.*`, with the numeric ids). `eventType` is the set A name where one
 * exists, else set B's; `aliases` holds the other set's name when it differs. An endpoint may subscribe with either,
 * and each delivery carries the name the endpoint subscribed with.
 */
export interface EventTypeEntry {
  eventTypeId: number;
  eventType: string;
  aliases: readonly string[];
  group: EventGroup;
  description: string;
  /** Only a partner's endpoints receive it (about the partner's merchants); a merchant endpoint cannot subscribe. */
  partnerOnly: boolean;
}

export type EventGroup =
  | 'Card Transactions'
  | 'ACH Transactions'
  | 'Invoices'
  | 'Subscriptions'
  | 'Quick Payments'
  | 'Payment Links'
  | 'Payment Sessions'
  | 'Settlement'
  | 'Terminals'
  | 'Merchants (affiliate only)'
  | 'API Keys (affiliate only)';

type Row = [id: number, setA: string | null, setB: string | null, group: EventGroup, description: string];

// The event catalog with its numeric ids (the `payment.*` names' ids), including terminal.deactivated (34), the payment
// session events (36, 37), the payment link events (38, 39), a processor's card chargeback (40) and a bank
// connection's undelivered file (41).
const ROWS = [
  [2, 'settlement.batch.completed', 'settlement.batch.completed', 'Settlement', 'Batch settled'],
  [3, 'transaction.card.authorized', 'payment.card.authorized', 'Card Transactions', 'Card authorization approved'],
  [4, 'transaction.card.captured', 'payment.card.captured', 'Card Transactions', 'Authorized payment captured'],
  [5, 'transaction.card.declined', 'payment.card.declined', 'Card Transactions', 'Declined by issuer'],
  [6, 'transaction.card.failed', 'payment.card.failed', 'Card Transactions', 'Failed on a processing error'],
  [7, 'transaction.card.voided', 'payment.card.voided', 'Card Transactions', 'Authorization voided before capture'],
  [8, 'transaction.card.refunded', 'payment.card.refunded', 'Card Transactions', 'Refunded to the cardholder'],
  [9, 'transaction.ach.scheduled', 'payment.ach.scheduled', 'ACH Transactions', 'ACH created and scheduled'],
  [10, 'transaction.ach.in_progress', 'payment.ach.in_progress', 'ACH Transactions', 'ACH submitted to network'],
  [11, 'transaction.ach.held', 'payment.ach.held', 'ACH Transactions', 'ACH placed on hold'],
  [12, null, 'payment.ach.released', 'ACH Transactions', 'ACH released from hold'],
  [13, 'transaction.ach.cancelled', 'payment.ach.cancelled', 'ACH Transactions', 'ACH canceled before processing'],
  [14, 'transaction.ach.cleared', 'payment.ach.cleared', 'ACH Transactions', 'ACH cleared'],
  [15, 'transaction.ach.charged_back', 'payment.ach.charged_back', 'ACH Transactions', 'ACH returned or charged back'],
  [16, 'transaction.ach.failed', 'payment.ach.failed', 'ACH Transactions', 'ACH failed on a processing error'],
  [17, 'transaction.ach.refunded', 'payment.ach.refunded', 'ACH Transactions', 'ACH refunded'],
  [18, 'invoice.created', 'invoice.created', 'Invoices', 'Invoice created'],
  [19, 'invoice.paid', 'invoice.paid', 'Invoices', 'Invoice marked as paid'],
  [21, 'subscription.created', 'subscription.created', 'Subscriptions', 'Subscription created'],
  [22, 'subscription.paid', 'subscription.paid', 'Subscriptions', 'Subscription payment collected'],
  [
    23,
    'subscription.payment_failed',
    'subscription.payment_failed',
    'Subscriptions',
    'Subscription payment attempt failed',
  ],
  [
    24,
    'subscription.delinquent',
    'subscription.delinquent',
    'Subscriptions',
    'Entered delinquent after repeated failures',
  ],
  [25, 'quick_payment.created', 'quick_payment.created', 'Quick Payments', 'Quick payment link created'],
  [26, 'quick_payment.paid', 'quick_payment.paid', 'Quick Payments', 'Quick payment link paid'],
  [30, 'merchant.created', 'merchant.created', 'Merchants (affiliate only)', 'Merchant account created'],
  [31, 'api_key.created', 'api_key.created', 'API Keys (affiliate only)', 'API key created'],
  [32, 'api_key.deleted', 'api_key.deleted', 'API Keys (affiliate only)', 'API key revoked or deleted'],
  [33, 'terminal.added', 'terminal.added', 'Terminals', 'Terminal registered'],
  [34, 'terminal.deactivated', 'terminal.deactivated', 'Terminals', 'Terminal deactivated'],
  [35, 'terminal.out_of_paper', 'terminal.out_of_paper', 'Terminals', 'Terminal paper roll empty'],
  [36, 'payment_session.created', 'payment_session.created', 'Payment Sessions', 'Payment session created'],
  [37, 'payment_session.completed', 'payment_session.completed', 'Payment Sessions', 'Payment session completed'],
  [38, 'payment_link.created', null, 'Payment Links', 'Payment link created'],
  [39, 'payment_link.updated', null, 'Payment Links', 'Payment link updated'],
  [40, 'transaction.card.charged_back', 'payment.card.charged_back', 'Card Transactions', 'Card payment charged back'],
  [41, 'ach.file.delivery_failed', null, 'ACH Transactions', 'ACH file not delivered to the bank: its entries wait'],
] as const satisfies readonly Row[];

/** Every event name of the catalog, in either set: code that records an event names one of these (compile-time). */
export type EventName = Exclude<(typeof ROWS)[number][1] | (typeof ROWS)[number][2], null>;

const PARTNER_ONLY = new Set(['merchant.created']);

export const EVENT_TYPES: readonly EventTypeEntry[] = ROWS.map(([eventTypeId, setA, setB, group, description]) => {
  const eventType = (setA ?? setB)!;
  const other = setA && setB && setA !== setB ? [setB] : [];
  return { eventTypeId, eventType, aliases: other, group, description, partnerOnly: PARTNER_ONLY.has(eventType) };
});

const BY_NAME = new Map<string, EventTypeEntry>();
for (const entry of EVENT_TYPES) {
  for (const name of [entry.eventType, ...entry.aliases]) BY_NAME.set(name, entry);
}

/** The catalog entry for either set's identifier, or undefined for an unknown one. */
export function eventTypeNamed(name: string): EventTypeEntry | undefined {
  return BY_NAME.get(name);
}

/** Every name (either set's) of the catalog's events in the given groups. */
export function eventNamesOf(...groups: EventGroup[]): EventName[] {
  return ROWS.filter((row) => groups.includes(row[3])).flatMap((row) =>
    [row[1], row[2]].filter((name): name is EventName => name !== null),
  );
}
