import type { Address } from '../../reference/address.js';
import type { TaxSetting } from '../amounts.js';
import type { RequestClaim } from '../payment-request.js';
import { type ContactInfo, TransactionStatus, TransactionType } from '../transactions.model.js';

/** The statuses an ACH transaction passes through: its names for the shared TransactionStatus ids. */
export const AchStatus = {
  Refunded: TransactionStatus.Refunded,
  Scheduled: TransactionStatus.Scheduled,
  Held: TransactionStatus.Held,
  Cancelled: TransactionStatus.Cancelled,
  /** Sent in a NACHA file, waiting for its settlement date. */
  InProgress: TransactionStatus.Pending,
  Cleared: TransactionStatus.Cleared,
  ChargedBack: TransactionStatus.ChargedBack,
  Failed: TransactionStatus.Failed,
} as const;

/** The ACH transaction and operation types: their names for the shared TransactionType ids. */
export const AchType = {
  Debit: TransactionType.AchDebit,
  Refund: TransactionType.AchRefund,
  Hold: TransactionType.AchHold,
  UnHold: TransactionType.AchUnHold,
  Cancel: TransactionType.AchCancel,
  Credit: TransactionType.AchCredit,
} as const;

export const SEC_CODES: Record<number, 'WEB' | 'PPD' | 'CCD' | 'TEL'> = { 1: 'WEB', 2: 'PPD', 3: 'CCD', 4: 'TEL' };
export const SEC_CODE_NAMES: Record<number, string> = { 1: 'Web', 2: 'PPD', 3: 'CCD', 4: 'Telephone' };
export const SecCode = { Web: 1, PPD: 2, CCD: 3, Telephone: 4 } as const;

/** A request to move money by ACH: a debit pulls from the customer, a credit pays the customer. */
export interface AchCommand {
  merchantId: string;
  /** The request's idempotency key, when it sent one (see RequestClaim). */
  idempotency?: RequestClaim;
  direction: 'debit' | 'credit';
  amountCents: number;
  percentageOffRateMpct: number | null;
  processorId?: string | null;
  customerId?: string | null;
  paymentMethodId?: string | null;
  accountNumber?: string | null;
  routingNumber?: string | null;
  secCode: number;
  requesterIp: string;
  isFasterProcessing: boolean;
  taxId?: string | null;
  accountType?: number | null;
  accountHolderType?: number | null;
  billingAddress: Address | null;
  shippingAddress: Address | null;
  contactInfo: ContactInfo | null;
  createMethodId: number;
  /** The payment session paying (its id becomes the transaction's source). */
  sourceId?: string | null;
  /** The caller's own reference (version 2 creates send one). */
  referenceId?: string | null;
  /** A payment session's tip (ACH payments take one only through a session). */
  tipCents?: number | null;
  /** Tax configured by a payment session (see PaymentCommand.tax). */
  tax?: TaxSetting | null;
}

/** The bank side of an ACH transaction (table ach_entries), without the sealed account number. */
export interface AchEntry {
  transactionId: string;
  merchantId: string;
  processorId: string;
  secCode: number;
  isDebit: boolean;
  routingNumber: string;
  accountMask: string;
  accountTypeId: number;
  accountHolderTypeId: number;
  receiverName: string;
  companyName: string | null;
  taxId: string | null;
  requesterIp: string;
  isFasterProcessing: boolean;
  windowAt: Date;
  fileId: string | null;
  traceNumber: string | null;
  effectiveDate: string | null;
  returnCode: string | null;
  returnReason: string | null;
  returnedAt: Date | null;
  changeCode: string | null;
  correctedData: string | null;
  failureReason: string | null;
}

/** The answer to every ACH operation (create, hold, release, void, refund). */
export interface AchResponse {
  transactionId: string;
  typeId: number;
  type: string;
  statusId: number;
  status: string;
  responseCode: string;
  responseDescription: string;
  processedAmount: number;
}
