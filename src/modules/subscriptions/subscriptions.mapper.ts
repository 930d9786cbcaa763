import { fromCents, fromMillipercent, optionalMillipercent, toCents, toMillipercent } from '../../platform/money.js';
import { CREATE_METHOD_NAMES } from '../payments/transactions.model.js';
import { CARD_TOKEN_TYPE_NAMES, PaymentMethodType } from '../vault/vault.model.js';
import type { SubscriptionDraft } from './subscription-input.js';
import {
  FREQUENCY_UNIT_NAMES,
  INSTALLMENT_STATUS_NAMES,
  SUBSCRIPTION_STATUS_NAMES,
  type Subscription,
} from './subscriptions.model.js';
import type { SubscriptionListRow } from './subscriptions.repo.js';
import type { CreateSubscriptionBody } from './subscriptions.schemas.js';
import type { InstallmentWithAttempts, SubscriptionDetails } from './subscriptions.service.js';

/** The record's transaction type labels (its own list, plus AchDebit for bank-account subscriptions). */
const TRANSACTION_TYPE_NAMES: Record<number, string> = {
  1: 'Authorization',
  2: 'Sale',
  3: 'Capture',
  4: 'Void',
  5: 'Refund',
  6: 'Verify',
  11: 'AchDebit',
};

const rate = (mpct: number | null) => (mpct === null ? null : fromMillipercent(mpct));
const iso = (date: Date | null) => date?.toISOString() ?? null;

export function subscriptionDraft(
  merchantId: string,
  clientId: string,
  body: CreateSubscriptionBody,
): SubscriptionDraft {
  return {
    merchantId,
    customerId: body.customerId,
    paymentMethodId: body.paymentMethodId,
    processorId: body.paymentProcessorId,
    amountCents: toCents(body.amount),
    currencyId: body.currencyId ?? 1,
    frequencyUnitId: body.paymentFrequencyUnit,
    frequency: body.paymentFrequency,
    numberOfPayments: body.numberOfPayments ?? null,
    transactionTypeId: body.transactionType,
    requesterIp: body.requesterIpAddress.trim(),
    startAt: body.paymentStartDateTime ? new Date(body.paymentStartDateTime) : null,
    secCode: body.secCode ?? null,
    isFasterProcessing: body.isFasterProcessing ?? null,
    percentageOffRateMpct: optionalMillipercent(body.percentageOffRate),
    surchargeRateMpct: optionalMillipercent(body.surchargeRate),
    useCardPrice: body.useCardPrice ?? null,
    schedule: body.schedule ?? null,
    installmentAmounts:
      body.installmentAmounts?.map((i) => ({ paymentOrder: i.paymentOrder, amountCents: toCents(i.amount) })) ?? null,
    sourceId: clientId,
  };
}

export function subscriptionView({ subscription: s, customer, method }: SubscriptionDetails) {
  const a = s.amount;
  const isCard = method?.typeId === PaymentMethodType.Card;
  return {
    id: s.id,
    merchantId: s.merchantId,
    paymentProcessorId: s.processorId,
    statusId: s.statusId,
    status: SUBSCRIPTION_STATUS_NAMES[s.statusId] ?? 'Unknown',
    transactionTypeId: s.transactionTypeId,
    transactionType: TRANSACTION_TYPE_NAMES[s.transactionTypeId] ?? 'Unknown',
    customerId: s.customerId,
    paymentMethodId: s.paymentMethodId,
    paymentAmount: {
      baseAmount: fromCents(a.baseCents),
      percentageOffAmount: fromCents(a.percentageOffCents),
      percentageOffRate: rate(a.percentageOffRateMpct),
      cashDiscountAmount: fromCents(a.cashDiscountCents),
      cashDiscountRate: rate(a.cashDiscountRateMpct),
      surchargeAmount: fromCents(a.surchargeCents),
      surchargeRate: rate(a.surchargeRateMpct),
      totalAmount: fromCents(a.totalCents),
    },
    alreadyPaidAmount: fromCents(s.paidCents),
    allPaymentsAmount: s.allPaymentsCents === null ? null : fromCents(s.allPaymentsCents),
    currencyId: s.currencyId,
    paymentFrequencyUnitId: s.frequencyUnitId,
    paymentFrequencyUnit: FREQUENCY_UNIT_NAMES[s.frequencyUnitId] ?? 'Unknown',
    paymentFrequency: s.frequency,
    schedule: s.schedule,
    installmentAmounts: installmentAmountsView(s),
    createdOn: s.createdAt.toISOString(),
    subscriptionStartDate: s.startAt.toISOString(),
    subscriptionEndDate: iso(s.endAt),
    lastPaymentDate: iso(s.lastPaymentAt),
    nextPaymentDate: iso(s.nextPaymentAt),
    successfulPaymentsCount: s.successfulCount,
    numberOfPayments: s.numberOfPayments,
    timeZone: s.timeZone,
    customer: {
      customerName: customer ? [customer.firstName, customer.lastName].filter(Boolean).join(' ') || null : null,
      companyName: customer?.companyName ?? null,
      panMask: method?.mask ?? null,
      cardTokenType: isCard ? (CARD_TOKEN_TYPE_NAMES[method.cardTokenTypeId ?? 1] ?? 'Local') : null,
      emailAddress: customer?.email ?? null,
      phoneNumber: customer?.mobilePhoneNumber ?? null,
    },
    source: {
      typeId: s.sourceTypeId,
      type: CREATE_METHOD_NAMES[s.sourceTypeId] ?? 'ApiToken',
      id: s.sourceId,
      name: s.sourceId ? 'ApiKey' : null,
    },
  };
}

export function subscriptionListItem(row: SubscriptionListRow) {
  const view = subscriptionView({
    subscription: row,
    customer: null,
    method: null,
  });
  return {
    ...view,
    customer: { ...view.customer, customerName: row.customerName, emailAddress: row.customerEmail },
    subscriptionId: row.id,
    customerName: row.customerName,
    amountPerPayment: fromCents(row.totalCents),
    totalPaymentsCount: row.chargedCount,
  };
}

function installmentAmountsView(s: Subscription) {
  if (!s.installmentAmounts) return null;
  return Object.entries(s.installmentAmounts)
    .map(([order, cents]) => ({ paymentOrder: Number(order), amount: fromCents(cents) }))
    .sort((a, b) => a.paymentOrder - b.paymentOrder);
}

export function installmentView(i: InstallmentWithAttempts) {
  return {
    id: i.id,
    status: INSTALLMENT_STATUS_NAMES[i.statusId] ?? 'Unknown',
    statusId: i.statusId,
    amount: fromCents(i.amountCents),
    paymentOrder: i.paymentOrder,
    initialExecutionDateTime: i.dueAt.toISOString(),
    nextAttemptDateTime: iso(i.nextAttemptAt),
    transactionId: i.transactionId,
    attempts: i.attemptRows.map((a) => ({
      attemptNumber: a.attempt_number as number,
      executedAt: new Date(a.executed_at as string).toISOString(),
      transactionId: (a.transaction_id as string | null) ?? null,
      result: (a.result as string | null) ?? null,
      responseCode: (a.response_code as string | null) ?? null,
      responseMessage: (a.response_message as string | null) ?? null,
    })),
  };
}
