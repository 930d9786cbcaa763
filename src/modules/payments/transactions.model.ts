import type { AvsResult } from '../../connectors/card/card-connector.js';
import type { Address } from '../reference/address.js';
import type { AmountColumns } from './amounts.js';

/** Wire ids from the specification (wire-notes §2). */
export const TransactionStatus = {
  Authorized: 1,
  Captured: 2,
  Voided: 3,
  Refunded: 4,
  Verified: 5,
  Settled: 6,
  Pending: 24,
  Declined: 91,
  Failed: 92,
} as const;
export const STATUS_NAMES: Record<number, string> = {
  1: 'Authorized',
  2: 'Captured',
  3: 'Voided',
  4: 'Refunded',
  5: 'Verified',
  6: 'Settled',
  7: 'PartiallyAuthorized',
  8: 'Informational',
  21: 'Scheduled',
  22: 'Held',
  23: 'Cancelled',
  24: 'Pending',
  25: 'Cleared',
  26: 'ChargedBack',
  91: 'Declined',
  92: 'Failed',
};

export const TransactionType = {
  Authorization: 1,
  Sale: 2,
  Capture: 3,
  Void: 4,
  Refund: 5,
  CardAuthentication: 6,
  RefundWORef: 7,
  TipAdjustment: 8,
} as const;
export const TYPE_NAMES: Record<number, string> = {
  1: 'Authorization',
  2: 'Sale',
  3: 'Capture',
  4: 'Void',
  5: 'Refund',
  6: 'CardAuthentication',
  7: 'RefundWORef',
  8: 'TipAdjustment',
  11: 'AchDebit',
  12: 'AchRefund',
  13: 'AchHold',
  14: 'AchUnHold',
  15: 'AchCancel',
  16: 'AchCredit',
};

export const CreateMethod = {
  Portal: 1,
  ApiToken: 2,
  Terminal: 3,
  Invoice: 4,
  QuickPayment: 5,
  WebComponent: 6,
  Subscription: 7,
  MobileApp: 8,
  TapToPay: 9,
} as const;
export const CREATE_METHOD_NAMES: Record<number, string> = {
  1: 'Portal',
  2: 'ApiToken',
  3: 'Terminal',
  4: 'Invoice',
  5: 'QuickPayment',
  6: 'WebComponent',
  7: 'Subscription',
  8: 'MobileApp',
  9: 'TapToPay',
};

export const CARD_DATA_SOURCE_NAMES: Record<number, string> = {
  1: 'Internet',
  2: 'Swipe',
  3: 'NFC',
  4: 'EMV',
  5: 'EMVContactless',
  6: 'FallbackSwipe',
  7: 'Manual',
};
/** Sources where the card is not physically read: AVS applies. */
export const CARD_NOT_PRESENT_SOURCES = new Set([1, 7]);

export interface ContactInfo {
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
  email: string | null;
  mobilePhoneNumber: string | null;
  smsNotification: boolean | null;
}

/** What an operation in flight (or with an unknown outcome) records on its transaction. */
export interface PendingOperation {
  operation:
    | 'sale'
    | 'authorize'
    | 'verify'
    | 'refund'
    | 'refund-without-reference'
    | 'capture'
    | 'void'
    | 'tip-adjust';
  reference: string;
  amountCents: number;
  /** Tip adjustment: the new tip. */
  tipCents?: number;
  startedAt: string;
  /**
   * The node that runs the call (NodeLiveness id). Once that node is gone, nobody will record the answer: the
   * reconciler (or a retry of the request) may ask the processor at once instead of waiting out the deadline.
   */
  node?: number;
  /** The call answered without an outcome (timeout, system error): the reconciler may query at once. */
  unknown?: boolean;
}

export interface StoredAvs extends AvsResult {
  action: 'Allow' | 'Deny';
}

/** A transaction row; its amount breakdown columns are those of amounts.ts (cents; rates in millipercent). */
export interface Transaction extends AmountColumns {
  id: string;
  merchantId: string;
  processorId: string;
  method: 'card' | 'ach';
  typeId: number;
  statusId: number;
  originalTransactionId: string | null;
  customerId: string | null;
  paymentMethodId: string | null;
  createMethodId: number;
  /** The payment session (or other hosted flow) that created it, shown as its `source.id`. */
  sourceId: string | null;
  /**
   * The idempotency claim of the request that created it (IdempotencyClaim.id): a retry of that request whose first
   * attempt was cut off finds it here and answers with it instead of paying again. Unique.
   */
  idempotencyId: string | null;
  cardDataSourceId: number | null;
  referenceId: string | null;
  customerInitiated: boolean | null;
  currencyId: number;
  authorizedCents: number;
  capturedCents: number;
  refundedCents: number;
  panMask: string | null;
  cardTypeId: number | null;
  creditDebitTypeId: number | null;
  cardTokenTypeId: number | null;
  cardFingerprint: Buffer | null;
  /**
   * Held by a sale or authorization while it can be a duplicate (see the duplicate check): a hash of merchant, card
   * fingerprint, total and reference, unique among the rows that hold one.
   */
  duplicateKey: Buffer | null;
  expirationMonth: number | null;
  expirationYear: number | null;
  billingAddress: Address | null;
  shippingAddress: Address | null;
  contactInfo: ContactInfo | null;
  avsResponse: StoredAvs | null;
  resultCode: string | null;
  responseCode: string | null;
  responseMessage: string | null;
  authCode: string | null;
  networkReference: string | null;
  pendingOperation: PendingOperation | null;
  batchId: string | null;
  detailsMessage: string | null;
  createdAt: Date;
  modifiedAt: Date;
  capturedAt: Date | null;
  voidedAt: Date | null;
  settledAt: Date | null;
}
