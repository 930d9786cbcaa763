import { fromCents, fromMillipercent } from '../../platform/money.js';
import { withFields } from '../../platform/objects.js';
import { amountView } from '../payments/transactions.mapper.js';
import { CreateMethod, STATUS_NAMES, type Transaction, TYPE_NAMES } from '../payments/transactions.model.js';
import {
  CUSTOMER_HANDLING_NAMES,
  type PaymentSession,
  SESSION_MODE_NAMES,
  SESSION_STATUS_NAMES,
  SessionStatus,
} from './sessions.model.js';
import type { SessionView } from './sessions.service.js';
import { taxModeName } from './sessions.service.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;
const money = (cents: number | null) => (cents === null ? null : fromCents(cents));

export function checkoutUrl(baseUrl: string, id: string): string {
  return `${baseUrl}/checkout/${id}`;
}

export function paymentMethodsView(session: PaymentSession) {
  return {
    card: { enabled: session.card.enabled, processorId: session.card.processorId },
    ach: {
      enabled: session.ach.enabled,
      processorId: session.ach.processorId,
      achAllowFasterProcessing: session.ach.fasterProcessing,
    },
  };
}

/** The methods offered, spelled as the client sent them (else `Card`, `ACH`). */
function paymentMethodTypes(session: PaymentSession): string[] {
  return (
    session.asSent?.paymentMethodTypes ?? [
      ...(session.card.enabled ? ['Card'] : []),
      ...(session.ach.enabled ? ['ACH'] : []),
    ]
  );
}

/** The expiry as the client wrote it when it is still the session's (else ISO 8601 with milliseconds). */
function expiresAtView(session: PaymentSession): string | null {
  const sent = session.asSent?.expiresAt;
  if (sent && session.expiresAt && Date.parse(sent) === session.expiresAt.getTime()) return sent;
  return iso(session.expiresAt);
}

const CANCELLATION_REASONS = { cancelled: 'Cancelled', expired: 'Expired', attempts: 'TooManyAttempts' } as const;

function attemptView(t: Transaction) {
  return {
    transactionId: t.id,
    status: STATUS_NAMES[t.statusId] ?? String(t.statusId),
    statusId: t.statusId,
    paymentMethodType: t.method === 'card' ? 'Card' : 'ACH',
    responseCode: t.responseCode,
    responseDescription: t.responseMessage ?? t.detailsMessage,
    createdAt: t.createdAt.toISOString(),
  };
}

function transactionDetails(view: SessionView) {
  const t = view.transaction;
  if (!t) return null;
  const status = STATUS_NAMES[t.statusId] ?? String(t.statusId);
  return {
    transactionId: t.id,
    transactionStatus: status,
    transactionStatusId: t.statusId,
    transactionType: TYPE_NAMES[t.typeId] ?? String(t.typeId),
    paymentMethodType: t.method === 'card' ? 'Card' : 'ACH',
    amount: amountView(t),
    currencyCode: 'USD',
    responseCode: t.responseCode,
    responseDescription: t.responseMessage ?? t.detailsMessage,
    customerPan: t.panMask,
    transactionReceiptUrl: null,
    transactionReceipt: { transactionId: t.id, status, amount: { totalAmount: fromCents(t.totalCents) } },
    history: view.attempts.filter((a) => a.originalTransactionId === null).map(attemptView),
  };
}

/** Retrieval, shared by both surfaces; only `mode` differs (a name on version 2, a number on the integration surface). */
function commonView(view: SessionView, baseUrl: string) {
  const s = view.session;
  const completed = s.status === SessionStatus.Completed;
  return {
    id: s.id,
    paymentSessionId: s.id,
    status: SESSION_STATUS_NAMES[s.status]!,
    statusId: s.status,
    amount: money(s.amountCents),
    tipAmount: money(s.tipCents),
    taxMode: taxModeName(s.taxMode),
    taxModeId: s.taxMode,
    taxRate: s.taxRateMpct === null ? null : fromMillipercent(s.taxRateMpct),
    // Shown only when tax was configured as an amount; a rate shows as taxRate instead.
    taxAmount: money(s.taxCents),
    surchargeAmount: view.transaction && completed ? fromCents(view.transaction.surchargeCents) : null,
    customerId: s.customerId,
    customerHandling: s.customerHandling === null ? null : CUSTOMER_HANDLING_NAMES[s.customerHandling]!,
    vaultedPaymentMethodId: completed ? s.vaultedPaymentMethodId : null,
    referenceId: s.referenceId,
    pageName: s.pageName,
    paymentNotes: s.paymentNotes,
    afterCompletionMessage: s.afterCompletionMessage,
    returnUrl: s.returnUrl,
    checkoutUrl: checkoutUrl(baseUrl, s.id),
    expiresAt: expiresAtView(s),
    createdAt: s.createdAt.toISOString(),
    completedAt: iso(s.completedAt),
    cancelledAt: iso(s.cancelledAt),
    cancellationReason: s.endReason ? CANCELLATION_REASONS[s.endReason] : null,
    skipAddressVerification: s.skipAddressVerification,
    // A session a payment link (or quick payment) opened: the link it pays.
    paymentLinkId: s.paymentSource?.typeId === CreateMethod.QuickPayment ? s.paymentSource.id : null,
    paymentMethods: paymentMethodsView(s),
    paymentMethodTypes: paymentMethodTypes(s),
    achAccountLast2: s.achAccountLast2,
    achRoutingLast2: s.achRoutingLast2,
    metadata: s.metadata,
    transactionDetails: transactionDetails(view),
  };
}

export function v2SessionView(view: SessionView, baseUrl: string) {
  const common = commonView(view, baseUrl);
  // The published revision's surcharge is a number: none (0) until a payment carries one.
  return withFields(common, {
    surchargeAmount: common.surchargeAmount ?? 0,
    mode: SESSION_MODE_NAMES[view.session.mode]!,
  });
}

export function intSessionView(view: SessionView, baseUrl: string) {
  return {
    ...commonView(view, baseUrl),
    mode: view.session.mode,
    modeName: SESSION_MODE_NAMES[view.session.mode]!,
  };
}

export function v2Created(session: PaymentSession, baseUrl: string) {
  return {
    id: session.id,
    paymentSessionId: session.id,
    checkoutUrl: checkoutUrl(baseUrl, session.id),
    paymentMethods: paymentMethodsView(session),
  };
}

export function intCreated(session: PaymentSession, baseUrl: string) {
  const url = checkoutUrl(baseUrl, session.id);
  return {
    id: session.id,
    mode: SESSION_MODE_NAMES[session.mode]!,
    returnUrl: session.returnUrl,
    CheckoutUrl: url,
    checkoutUrl: url,
    checkoutUrlShort: url,
    createdAt: session.createdAt.toISOString(),
    expiresAt: expiresAtView(session),
  };
}
