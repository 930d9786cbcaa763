import type { TaxSetting } from '../payments/amounts.js';
import type { PaymentSource } from '../payments/payments.service.js';

/** Payment session statuses and modes: the same ids on both create surfaces (v2 and integration). */
export const SessionStatus = { Created: 1, Cancelled: 2, Completed: 3, Failed: 4 } as const;
export type SessionStatusId = (typeof SessionStatus)[keyof typeof SessionStatus];
export const SESSION_STATUS_NAMES: Record<number, 'Created' | 'Cancelled' | 'Completed' | 'Failed'> = {
  1: 'Created',
  2: 'Cancelled',
  3: 'Completed',
  4: 'Failed',
};

export const SessionMode = { Payment: 1, SaveMethod: 2, PaymentAndSave: 3 } as const;
export const SESSION_MODE_NAMES: Record<number, 'Payment' | 'SaveMethod' | 'PaymentAndSave'> = {
  1: 'Payment',
  2: 'SaveMethod',
  3: 'PaymentAndSave',
};

export const CustomerHandling = { CreateCustomer: 1, TokenOnly: 2 } as const;
export const CUSTOMER_HANDLING_NAMES: Record<number, 'CreateCustomer' | 'TokenOnly'> = {
  1: 'CreateCustomer',
  2: 'TokenOnly',
};

export const TaxMode = { Exclusive: 1, Inclusive: 2 } as const;
export const TAX_MODE_NAMES: Record<number, 'Exclusive' | 'Inclusive'> = { 1: 'Exclusive', 2: 'Inclusive' };

/** Declined or failed tries on one session before it ends as Failed (card testing stops there). */
export const MAX_FAILED_ATTEMPTS = 5;

export type Surface = 'v2' | 'int';

/** Why a session ended without completing. */
export type EndReason = 'cancelled' | 'expired' | 'attempts';

/** What a session is configured with: a create request once its rules are checked (cents, millipercent). */
export interface SessionSettings {
  merchantId: string;
  surface: Surface;
  mode: number;
  /** null: a flexible amount the payer enters. */
  amountCents: number | null;
  tipCents: number | null;
  taxMode: number | null;
  taxRateMpct: number | null;
  taxCents: number | null;
  skipAddressVerification: boolean;
  referenceId: string | null;
  customerId: string | null;
  customerHandling: number | null;
  returnUrl: string | null;
  card: { enabled: boolean; processorId: string | null };
  ach: { enabled: boolean; processorId: string | null; fasterProcessing: boolean };
  metadata: Record<string, string> | null;
  afterCompletionMessage: string | null;
  pageName: string | null;
  paymentNotes: string | null;
  isMultiUse: boolean;
  expiresAt: Date | null;
  /** What this session collects for, when not itself (an invoice): its payments go through that source's flow. */
  paymentSource: { typeId: PaymentSource['typeId']; id: string } | null;
  /** Fields as the client spelled them, echoed back instead of their normalized form (null: nothing to echo). */
  asSent?: SentSpellings | null;
}

/** `paymentMethodTypes` as sent (`["card","ach"]`), `expiresAt` as sent (`…T22:04:51Z`, no milliseconds). */
export interface SentSpellings {
  paymentMethodTypes?: string[];
  expiresAt?: string;
}

/** A session as the service sees it: its settings and where its flow stands. */
export interface PaymentSession extends SessionSettings {
  id: string;
  status: number;
  createdAt: Date;
  modifiedAt: Date;
  completedAt: Date | null;
  cancelledAt: Date | null;
  endReason: EndReason | null;
  processingToken: string | null;
  processingUntil: Date | null;
  /** The node whose submission holds the lease (a dead one's lease is free at once). */
  processingNode: number | null;
  failedAttempts: number;
  awaitingOutcome: boolean;
  transactionId: string | null;
  vaultedPaymentMethodId: string | null;
  paidAmountCents: number | null;
  achAccountLast2: string | null;
  achRoutingLast2: string | null;
}

/** What a create request asks for, in domain units, after the surface's own parsing (rules not yet checked). */
export interface SessionDraft extends Omit<SessionSettings, 'card' | 'ach'> {
  /** `enabled: null`: offered when the merchant has an active processor for the method (the request named none). */
  card: { enabled: boolean | null; processorId: string | null };
  ach: { enabled: boolean | null; processorId: string | null; fasterProcessing: boolean };
  /** Without `expiresAt`: expire this long after creation (the integration surface's 30 minutes); null: never. */
  defaultLifetimeMs: number | null;
}

/** A session's tax as the payment services take it (null: no tax configured). */
export function sessionTax(s: Pick<SessionSettings, 'taxMode' | 'taxRateMpct' | 'taxCents'>): TaxSetting | null {
  if (s.taxMode === null) return null;
  return {
    mode: s.taxMode === TaxMode.Inclusive ? 'inclusive' : 'exclusive',
    rateMpct: s.taxRateMpct,
    cents: s.taxCents,
  };
}

/** The payer's side of a session: open for payment, or ended (and how). */
export function isOpen(session: PaymentSession, now: Date): boolean {
  return session.status === SessionStatus.Created && !(session.expiresAt && session.expiresAt <= now);
}
