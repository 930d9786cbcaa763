import type { AvsResult, EnhancedData } from '../../connectors/card/card-connector.js';
import { namesOf } from '../../platform/db/sql-ids.js';
import type { Address } from '../reference/address.js';
import type { AmountColumns } from './amounts.js';

/**
 * Transaction status ids, card and ACH in one list (the API's `statusId`; the names are its `status`). ACH shares
 * Refunded, Pending (an ACH entry "in progress": sent in a NACHA file) and Failed with cards.
 */
export const TransactionStatus = {
  Authorized: 1,
  Captured: 2,
  Voided: 3,
  Refunded: 4,
  Verified: 5,
  Settled: 6,
  PartiallyAuthorized: 7,
  Informational: 8,
  Scheduled: 21,
  Held: 22,
  Cancelled: 23,
  Pending: 24,
  Cleared: 25,
  ChargedBack: 26,
  Declined: 91,
  Failed: 92,
} as const;
export const STATUS_NAMES = namesOf(TransactionStatus);

/** Transaction (and operation) type ids, card and ACH in one list (the API's `typeId`; the names are its `type`). */
export const TransactionType = {
  Authorization: 1,
  Sale: 2,
  Capture: 3,
  Void: 4,
  Refund: 5,
  CardAuthentication: 6,
  RefundWORef: 7,
  TipAdjustment: 8,
  AchDebit: 11,
  AchRefund: 12,
  AchHold: 13,
  AchUnHold: 14,
  AchCancel: 15,
  AchCredit: 16,
} as const;
export const TYPE_NAMES = namesOf(TransactionType);

/**
 * What a batch counts as sales (money in: card sales and authorizations, ACH debits) and as refunds (money out: card
 * refunds, ACH refunds and credits), each by what it moved (`captured_cents`).
 */
export const SALE_TYPES = [TransactionType.Authorization, TransactionType.Sale, TransactionType.AchDebit] as const;
export const REFUND_TYPES = [
  TransactionType.Refund,
  TransactionType.RefundWORef,
  TransactionType.AchRefund,
  TransactionType.AchCredit,
] as const;
export const CARD_SALE_TYPES = [TransactionType.Authorization, TransactionType.Sale] as const;
export const CARD_REFUND_TYPES = [TransactionType.Refund, TransactionType.RefundWORef] as const;

/** Where a transaction came from (the API's `createMethodId`): the payment source that created it. */
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
export const CREATE_METHOD_NAMES = namesOf(CreateMethod);

/** How the card was read (the API's `cardDataSource`). */
export const CardDataSource = {
  Internet: 1,
  Swipe: 2,
  NFC: 3,
  EMV: 4,
  EMVContactless: 5,
  FallbackSwipe: 6,
  Manual: 7,
} as const;
export const CARD_DATA_SOURCE_NAMES = namesOf(CardDataSource);
/** Sources where the card is not physically read: AVS applies. */
export const CARD_NOT_PRESENT_SOURCES: ReadonlySet<number> = new Set([CardDataSource.Internet, CardDataSource.Manual]);

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
  /**
   * The processor took the request and its notification decides (Adyen's "received"): nobody reconciles it, the
   * notification settles it (docs/connectors.md).
   */
  awaiting?: 'notification';
  /** A new payment whose outcome was unknown, being settled by a technical cancel: its notification decides. */
  resolving?: 'technical-cancel';
  /** The technical cancel was refused (the payment exists): its authorisation's notification decides. */
  cancelRefused?: true;
  /** The processor's notification of the payment's authorisation, kept until the operation is settled. */
  authorisation?: { success: boolean; processorReference: string; authCode: string | null; reason: string | null };
  /** The processor's reference of the request it took (a modification's own reference). */
  processorReference?: string;
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
  /** Level 2/3 data of a card sale or authorization (see enhanced-data.ts); null when it has none. */
  enhancedData: EnhancedData | null;
  createdAt: Date;
  modifiedAt: Date;
  capturedAt: Date | null;
  voidedAt: Date | null;
  settledAt: Date | null;
}
