import { CARD_TYPE_NAMES } from '../../connectors/card/card-numbers.js';
import { fromCents, fromMillipercent } from '../../platform/money.js';
import { withFields } from '../../platform/objects.js';
import type { MerchantConfiguration, MerchantContact } from '../merchants/merchants.model.js';
import { stateById } from '../reference/states.js';
import { ACCOUNT_HOLDER_TYPE_NAMES, ACCOUNT_TYPE_NAMES } from '../vault/vault.model.js';
import type { AchEntry } from './ach/ach.model.js';
import { SEC_CODE_NAMES } from './ach/ach.model.js';
import type { AmountBreakdown } from './amounts.js';
import { percentOf } from './amounts.js';
import { avsView } from './avs.js';
import type { OperationResult } from './card-payments.service.js';
import { enhancedDataView } from './enhanced-data.js';
import {
  CARD_DATA_SOURCE_NAMES,
  CREATE_METHOD_NAMES,
  CreateMethod,
  STATUS_NAMES,
  type Transaction,
  TransactionStatus,
  TransactionType,
  TYPE_NAMES,
} from './transactions.model.js';

const rate = (mpct: number | null) => (mpct === null ? null : fromMillipercent(mpct));

export function amountView(a: AmountBreakdown | Transaction) {
  return {
    baseAmount: fromCents(a.baseCents),
    percentageOffAmount: fromCents(a.percentageOffCents),
    percentageOffRate: rate(a.percentageOffRateMpct),
    cashDiscountAmount: fromCents(a.cashDiscountCents),
    cashDiscountRate: rate(a.cashDiscountRateMpct),
    surchargeAmount: fromCents(a.surchargeCents),
    surchargeRate: rate(a.surchargeRateMpct),
    tipAmount: fromCents(a.tipCents),
    tipRate: rate(a.tipRateMpct),
    taxAmount: fromCents(a.taxCents),
    taxRate: rate(a.taxRateMpct),
    totalAmount: fromCents(a.totalCents),
  };
}

function details(t: Transaction, result: OperationResult | null) {
  const outcome = result?.outcome ?? null;
  const code = outcome
    ? outcome.kind === 'approved'
      ? 'Approve'
      : outcome.kind === 'declined'
        ? 'Decline'
        : outcome.kind === 'failed'
          ? 'Error'
          : 'Pending'
    : (t.resultCode ?? (t.statusId === TransactionStatus.Pending ? 'Pending' : 'Approve'));
  const message = t.detailsMessage ?? outcome?.message ?? t.responseMessage;
  return {
    code,
    message:
      code === 'Pending' && !t.detailsMessage
        ? 'The outcome is not known yet; check the status later.'
        : (message ?? null),
    authCode: t.authCode,
    maskedPan: t.panMask,
    hostResponseCode: outcome?.responseCode ?? t.responseCode,
    hostResponseMessage: outcome?.message ?? t.responseMessage,
    processorResponseCode: outcome?.responseCode ?? t.responseCode,
  };
}

/** What a terminal prints (and the `transactionReceipt` of responses). */
export function receipt(t: Transaction, merchantName: string) {
  return {
    transactionId: t.id,
    transactionDateTime: t.createdAt.toISOString(),
    amount: amountView(t),
    currencyId: t.currencyId,
    currency: 'USD',
    merchantName,
    authCode: t.authCode,
    maskedPan: t.panMask,
    cardType: t.cardTypeId === null ? null : (CARD_TYPE_NAMES[t.cardTypeId] ?? null),
    cardDataSource: t.cardDataSourceId === null ? null : (CARD_DATA_SOURCE_NAMES[t.cardDataSourceId] ?? null),
    transactionType: TYPE_NAMES[t.typeId]!,
    status: STATUS_NAMES[t.statusId]!,
  };
}

/** Response of sale, auth, verify and refund without reference (AuthorizationResponseDto). */
export function authorizationResponse(result: OperationResult, merchantName: string) {
  return withFields(transactionResponse(result, merchantName), {
    avsResponse: avsView(result.transaction.avsResponse),
  });
}

/** Response of capture, void, return and tip adjustment (TransactionResponseIsvDto). */
export function transactionResponse(result: OperationResult, merchantName: string) {
  const t = result.transaction;
  return {
    transactionId: t.id,
    transactionDateTime: t.createdAt.toISOString(),
    typeId: result.typeId,
    type: TYPE_NAMES[result.typeId]!,
    statusId: t.statusId,
    status: STATUS_NAMES[t.statusId]!,
    processedAmount: fromCents(result.processedCents),
    details: details(t, result),
    transactionReceipt: receipt(t, merchantName),
  };
}

export function availableOperations(t: Transaction, configuration: MerchantConfiguration) {
  const ops: Array<{
    type: string;
    typeId: number;
    availableAmount: number;
    suggestedTips: Array<{ tipRate: number; tipAmount: number }> | null;
  }> = [];
  if (t.method === 'ach') return achOperations(t);
  if (t.pendingOperation) return ops;
  const tips = configuration.settings.isTipsEnabled
    ? (configuration.settings.defaultTipsOptionsMpct ?? []).map((mpct) => ({
        tipRate: fromMillipercent(mpct),
        tipAmount: fromCents(percentOf(t.baseCents - t.percentageOffCents, mpct)),
      }))
    : null;
  const payment = t.typeId === TransactionType.Sale || t.typeId === TransactionType.Authorization;
  if (!payment) return ops;
  const op = (typeId: number, availableCents: number, suggestedTips: typeof tips = null) =>
    ops.push({ type: TYPE_NAMES[typeId]!, typeId, availableAmount: fromCents(availableCents), suggestedTips });
  if (t.statusId === TransactionStatus.Authorized) {
    op(TransactionType.Capture, t.authorizedCents);
    op(TransactionType.Void, t.authorizedCents);
    if (tips) op(TransactionType.TipAdjustment, t.tipCents, tips);
  }
  const refundable = t.capturedCents - t.refundedCents;
  if (t.statusId === TransactionStatus.Captured && !t.settledAt && t.refundedCents === 0) {
    op(TransactionType.Void, t.capturedCents);
    if (tips) op(TransactionType.TipAdjustment, t.tipCents, tips);
  }
  if ((t.statusId === TransactionStatus.Captured || t.statusId === TransactionStatus.Settled) && refundable > 0) {
    op(TransactionType.Refund, refundable);
  }
  return ops;
}

/** ACH: hold and void while Scheduled, release and void while Held, refund a Cleared debit. */
function achOperations(t: Transaction) {
  const op = (type: string, typeId: number) => ({
    type,
    typeId,
    availableAmount: fromCents(t.totalCents),
    suggestedTips: null,
  });
  const { AchHold, AchUnHold, AchCancel, AchRefund } = TransactionType;
  if (t.statusId === TransactionStatus.Scheduled) return [op('AchHold', AchHold), op('AchCancel', AchCancel)];
  if (t.statusId === TransactionStatus.Held) return [op('AchUnHold', AchUnHold), op('AchCancel', AchCancel)];
  if (t.statusId === TransactionStatus.Cleared && t.typeId === TransactionType.AchDebit) {
    return [op('AchRefund', AchRefund)];
  }
  return [];
}

/** The bank side of an ACH transaction, as the status check shows it (the account number masked). */
export function achDetailsView(entry: AchEntry) {
  return {
    secCodeId: entry.secCode,
    secCode: SEC_CODE_NAMES[entry.secCode] ?? 'Web',
    accountNumber: entry.accountMask,
    routingNumber: entry.routingNumber,
    accountTypeId: entry.accountTypeId,
    accountType: ACCOUNT_TYPE_NAMES[entry.accountTypeId] ?? 'Checking',
    accountHolderTypeId: entry.accountHolderTypeId,
    accountHolderType: ACCOUNT_HOLDER_TYPE_NAMES[entry.accountHolderTypeId] ?? 'Personal',
    isFasterProcessing: entry.isFasterProcessing,
    scheduledWindow: entry.windowAt.toISOString(),
    fileId: entry.fileId,
    traceNumber: entry.traceNumber,
    effectiveDate: entry.effectiveDate,
    returnCode: entry.returnCode,
    returnReason: entry.returnReason,
    returnedAt: entry.returnedAt?.toISOString() ?? null,
    notificationOfChange: entry.changeCode
      ? { changeCode: entry.changeCode, correctedData: entry.correctedData ?? '' }
      : null,
    failureReason: entry.failureReason,
  };
}

/** What kind of record a payment source's `id` names, by source type. */
const SOURCE_RECORDS: Record<number, string> = {
  [CreateMethod.WebComponent]: 'PaymentSession',
  [CreateMethod.Subscription]: 'Subscription',
  [CreateMethod.Invoice]: 'Invoice',
  [CreateMethod.QuickPayment]: 'QuickPayment',
  [CreateMethod.Terminal]: 'Terminal',
  [CreateMethod.TapToPay]: 'Device',
};

/** Who created it; a payment made through a record of its own (a payment session, ...) names it (`id`, `name`). */
function source(t: Transaction) {
  return {
    typeId: t.createMethodId,
    type: CREATE_METHOD_NAMES[t.createMethodId] ?? 'ApiToken',
    id: t.sourceId,
    name: t.sourceId ? (SOURCE_RECORDS[t.createMethodId] ?? null) : null,
  };
}

function addressLine(contact: MerchantContact | undefined): string | null {
  if (!contact) return null;
  const a = contact.address;
  const state = a.stateId ? stateById(a.stateId)?.code : undefined;
  const text = [a.line1, a.line2, a.city, [state, a.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return text || null;
}

/** The status check (GetIsvTransactionResponseDto). */
export function transactionView(
  t: Transaction,
  configuration: MerchantConfiguration,
  contact: MerchantContact | undefined,
  achEntry?: AchEntry,
) {
  const processor = configuration.processors.find((p) => p.id === t.processorId);
  return {
    transactionId: t.id,
    transactionDateTime: t.createdAt.toISOString(),
    amount: amountView(t),
    currencyId: t.currencyId,
    currency: 'USD',
    processorId: t.processorId,
    processor: processor?.name ?? 'Unknown',
    operationTypeId: t.createMethodId === CreateMethod.Subscription ? 2 : 1,
    operationType: t.createMethodId === CreateMethod.Subscription ? 'Subscription' : 'PayNow',
    paymentMethodTypeId: t.method === 'card' ? 1 : 2,
    paymentMethodType: t.method === 'card' ? 'Card' : 'ElectronicCheck',
    transactionTypeId: t.typeId,
    transactionType: TYPE_NAMES[t.typeId]!,
    originalTransactionId: t.originalTransactionId,
    customerId: t.customerId,
    paymentMethodId: t.paymentMethodId,
    customerPan: t.panMask,
    cardType: t.cardTypeId === null ? null : (CARD_TYPE_NAMES[t.cardTypeId] ?? null),
    cardTypeId: t.cardTypeId,
    cardTokenType: t.cardTokenTypeId,
    statusId: t.statusId,
    status: STATUS_NAMES[t.statusId]!,
    merchantName: configuration.companyName,
    merchantAddress: addressLine(contact),
    merchantPhoneNumber: contact?.phone ?? null,
    merchantEmailAddress: contact?.email ?? null,
    merchantWebsite: null,
    authCode: t.authCode,
    source: source(t),
    cardholderAuthenticationMethodId: null,
    cardholderAuthenticationMethod: null,
    cvmResultMsg: null,
    cardDataSourceId: t.cardDataSourceId,
    cardDataSource: t.cardDataSourceId === null ? null : (CARD_DATA_SOURCE_NAMES[t.cardDataSourceId] ?? null),
    responseCode: t.responseCode,
    responseDescription: t.detailsMessage ?? t.responseMessage,
    details: details(t, null),
    referenceId: t.referenceId,
    batchId: t.batchId,
    capturedAmount: fromCents(t.capturedCents),
    refundedAmount: fromCents(t.refundedCents),
    cardProcessingDetails:
      t.method === 'card'
        ? {
            authCode: t.authCode,
            networkReference: t.networkReference,
            maskedPan: t.panMask,
            expirationMonth: t.expirationMonth,
            expirationYear: t.expirationYear,
            creditDebitType: t.creditDebitTypeId,
          }
        : null,
    achProcessingDetails: achEntry ? achDetailsView(achEntry) : null,
    availableOperations: availableOperations(t, configuration),
    avsResponse: avsView(t.avsResponse),
    emvTags: null,
    orderNumber: t.referenceId,
    transactionEnhancedData: enhancedDataView(t.enhancedData),
  };
}

export function transactionListItem(
  t: Transaction & {
    customerName: string | null;
    customerCompany: string | null;
    customerEmail: string | null;
    customerPhone: string | null;
  },
  configuration: MerchantConfiguration,
  achEntry?: AchEntry,
) {
  return {
    id: t.id,
    paymentProcessorId: t.processorId,
    date: t.createdAt.toISOString(),
    baseAmount: fromCents(t.baseCents),
    totalAmount: fromCents(t.totalCents),
    surchargeAmount: fromCents(t.surchargeCents),
    surchargePercentage: rate(t.surchargeRateMpct),
    currencyCode: 'USD',
    currencyId: t.currencyId,
    merchant: configuration.companyName,
    merchantId: t.merchantId,
    operationMode: t.createMethodId === CreateMethod.Subscription ? 'Subscription' : 'PayNow',
    paymentMethodType: t.method === 'card' ? 'Card' : 'ElectronicCheck',
    paymentMethodTypeId: t.method === 'card' ? 1 : 2,
    paymentMethodName: t.cardTypeId === null ? null : (CARD_TYPE_NAMES[t.cardTypeId] ?? null),
    customerId: t.customerId,
    customerName: t.customerName,
    customerCompany: t.customerCompany,
    customerPan: t.panMask,
    cardTokenType: t.cardTokenTypeId,
    customerEmail: t.customerEmail,
    customerPhone: t.customerPhone,
    status: STATUS_NAMES[t.statusId]!,
    statusId: t.statusId,
    typeId: t.typeId,
    type: TYPE_NAMES[t.typeId]!,
    batchId: t.batchId,
    referenceId: t.referenceId,
    source: source(t),
    achProcessingDetails: achEntry ? achDetailsView(achEntry) : null,
    availableOperations: availableOperations(t, configuration),
    amount: amountView(t),
  };
}
