import { namesOf } from '../../platform/db/sql-ids.js';

/** Invoice statuses (the API's `status`, an integer; names for `statusName`). */
export const InvoiceStatus = {
  Draft: 1,
  Published: 2,
  Paid: 3,
  Expired: 4,
  Canceled: 5,
  ProcessingPayment: 6,
  Refunded: 7,
} as const;
export const INVOICE_STATUS_NAMES = namesOf(InvoiceStatus);

/** A line as the invoice keeps it: a copy, whatever becomes of the catalog item it came from. */
export interface InvoiceLine {
  lineItemId: string | null;
  productName: string;
  description: string | null;
  quantityMilli: number;
  unitPriceCents: number;
  unitTypeId: number;
  discountMpct: number | null;
  taxMpct: number | null;
}

export interface InlineCustomer {
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
  email: string | null;
  mobileNumber: string | null;
  isMobileNumberSmsNotificationsEnabled: boolean;
}

/** What a create or a full replacement sets. */
export interface InvoiceContent {
  number: string | null;
  customerId: string | null;
  customer: InlineCustomer | null;
  issueDate: Date;
  dueDate: Date;
  lines: InvoiceLine[];
  discountMpct: number | null;
  taxMpct: number | null;
  shippingFeeCents: number | null;
  feesMpct: number | null;
  notes: string | null;
  paymentMethodTypeId: number;
  referenceId: string | null;
}

export interface Invoice extends InvoiceContent {
  id: string;
  merchantId: string;
  number: string;
  statusId: number;
  totalCents: number;
  paidCents: number;
  paymentDate: Date | null;
  paidNote: string | null;
  transactionIds: string[];
  publishedAt: Date | null;
  /** Payments started so far (the current one's number while ProcessingPayment). */
  paymentAttempts: number;
  processingMethod: 'card' | 'ach' | null;
  processingSince: Date | null;
  /** The node making the current payment (while ProcessingPayment). */
  processingNode: number | null;
  /** The idempotency claim of the request that started the latest payment, when it sent a key. */
  paymentClaim: string | null;
  /** Why the last payment did not go through (a decline, an ACH return). */
  lastPaymentError: string | null;
  /** The hosted page's token (`/invoices/{token}`), from publication on. */
  publicToken: string | null;
  /** The payment session the hosted page opened last. */
  checkoutSessionId: string | null;
  createdAt: Date;
  modifiedAt: Date;
  /** For lists: the customer's name (the customer record's, else the inline customer's). */
  customerName: string | null;
}

/** A Published, unpaid invoice this many days past its due date is Expired (INVOICE_EXPIRY_DAYS). */
export const DEFAULT_EXPIRY_DAYS = 30;
