import type { Address } from '../../reference/address.js';
import type { TaxSetting } from '../amounts.js';
import type { RequestClaim } from '../payment-request.js';
import type { ContactInfo } from '../transactions.model.js';

/** ACH statuses and types (wire-notes §2); the shared ids (4 Refunded, 24 Pending, 92 Failed) mean the same. */
export const AchStatus = {
  Refunded: 4,
  Scheduled: 21,
  Held: 22,
  Cancelled: 23,
  InProgress: 24,
  Cleared: 25,
  ChargedBack: 26,
  Failed: 92,
} as const;

export const AchType = {
  Debit: 11,
  Refund: 12,
  Hold: 13,
  UnHold: 14,
  Cancel: 15,
  Credit: 16,
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

/** The spec's "ACH response". */
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
