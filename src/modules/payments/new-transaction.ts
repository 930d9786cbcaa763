import type { AmountColumns } from './amounts.js';
import type { Transaction } from './transactions.model.js';

/** What identifies a new transaction and its amounts; every other field defaults to "nothing happened yet". */
export type NewTransaction = Pick<
  Transaction,
  'id' | 'merchantId' | 'processorId' | 'method' | 'typeId' | 'statusId' | 'createMethodId' | 'createdAt'
> & { amounts: AmountColumns } & Partial<Omit<Transaction, keyof AmountColumns>>;

/**
 * The one place a transaction row is written out field by field: card payments, card refunds, ACH debits, credits
 * and refunds all start here. A literal with every field in one fixed order (no spread), so every transaction object
 * has one shape on the payment path.
 */
export function newTransaction(t: NewTransaction): Transaction {
  const a = t.amounts;
  return {
    id: t.id,
    merchantId: t.merchantId,
    processorId: t.processorId,
    method: t.method,
    typeId: t.typeId,
    statusId: t.statusId,
    originalTransactionId: t.originalTransactionId ?? null,
    customerId: t.customerId ?? null,
    paymentMethodId: t.paymentMethodId ?? null,
    createMethodId: t.createMethodId,
    sourceId: t.sourceId ?? null,
    idempotencyId: t.idempotencyId ?? null,
    cardDataSourceId: t.cardDataSourceId ?? null,
    referenceId: t.referenceId ?? null,
    customerInitiated: t.customerInitiated ?? null,
    currencyId: t.currencyId ?? 1,
    baseCents: a.baseCents,
    percentageOffCents: a.percentageOffCents,
    percentageOffRateMpct: a.percentageOffRateMpct,
    cashDiscountCents: a.cashDiscountCents,
    cashDiscountRateMpct: a.cashDiscountRateMpct,
    surchargeCents: a.surchargeCents,
    surchargeRateMpct: a.surchargeRateMpct,
    tipCents: a.tipCents,
    tipRateMpct: a.tipRateMpct,
    taxCents: a.taxCents,
    taxRateMpct: a.taxRateMpct,
    totalCents: a.totalCents,
    authorizedCents: t.authorizedCents ?? 0,
    capturedCents: t.capturedCents ?? 0,
    refundedCents: t.refundedCents ?? 0,
    panMask: t.panMask ?? null,
    cardTypeId: t.cardTypeId ?? null,
    creditDebitTypeId: t.creditDebitTypeId ?? null,
    cardTokenTypeId: t.cardTokenTypeId ?? null,
    cardFingerprint: t.cardFingerprint ?? null,
    duplicateKey: t.duplicateKey ?? null,
    expirationMonth: t.expirationMonth ?? null,
    expirationYear: t.expirationYear ?? null,
    billingAddress: t.billingAddress ?? null,
    shippingAddress: t.shippingAddress ?? null,
    contactInfo: t.contactInfo ?? null,
    avsResponse: t.avsResponse ?? null,
    resultCode: t.resultCode ?? null,
    responseCode: t.responseCode ?? null,
    responseMessage: t.responseMessage ?? null,
    authCode: t.authCode ?? null,
    networkReference: t.networkReference ?? null,
    pendingOperation: t.pendingOperation ?? null,
    batchId: t.batchId ?? null,
    detailsMessage: t.detailsMessage ?? null,
    enhancedData: t.enhancedData ?? null,
    createdAt: t.createdAt,
    modifiedAt: t.modifiedAt ?? t.createdAt,
    capturedAt: t.capturedAt ?? null,
    voidedAt: t.voidedAt ?? null,
    settledAt: t.settledAt ?? null,
  };
}

/** A plain amount with no discount, surcharge, tip or tax of its own (refunds, ACH refunds). */
export function plainAmount(totalCents: number): AmountColumns {
  return {
    baseCents: totalCents,
    percentageOffCents: 0,
    percentageOffRateMpct: null,
    cashDiscountCents: 0,
    cashDiscountRateMpct: null,
    surchargeCents: 0,
    surchargeRateMpct: null,
    tipCents: 0,
    tipRateMpct: null,
    taxCents: 0,
    taxRateMpct: null,
    totalCents,
  };
}
