// The published revision's names on a transaction (TxShort and TxFull of the "V2 Beta" document), beside the older
// ones. Derived from the same row: nothing here is stored apart.
import { CARD_TYPE_NAMES, CREDIT_DEBIT_NAMES } from '../../connectors/card/card-numbers.js';
import { fromCents, fromMillipercent } from '../../platform/money.js';
import type { AchEntry } from '../payments/ach/ach.model.js';
import {
  CARD_DATA_SOURCE_NAMES,
  CardDataSource,
  CREATE_METHOD_NAMES,
  CreateMethod,
  type Transaction,
  TransactionStatus,
  TYPE_NAMES,
} from '../payments/transactions.model.js';
import type { avs } from './v2-transactions.mapper.js';

const TOKEN_TYPES: Record<number, string> = { 1: 'Local', 2: 'Network' };

/**
 * How the cardholder was verified: a card-not-present payment is NotAuthenticated; for a card read on a terminal
 * Tessera records no verification method, so Unknown.
 */
function verification(t: Transaction): string {
  const source = t.cardDataSourceId ?? CardDataSource.Internet;
  return source === CardDataSource.Internet || source === CardDataSource.Manual ? 'NotAuthenticated' : 'Unknown';
}

const rate = (mpct: number | null) => (mpct == null ? 0 : fromMillipercent(mpct));

export function publishedBreakdown(t: Transaction) {
  return {
    baseAmount: fromCents(t.baseCents),
    tipAmount: fromCents(t.tipCents),
    tipRate: rate(t.tipRateMpct),
    discountAmount: fromCents(t.percentageOffCents + t.cashDiscountCents),
    discountRate: rate(t.percentageOffRateMpct ?? t.cashDiscountRateMpct),
    surchargeAmount: fromCents(t.surchargeCents),
    surchargeRate: rate(t.surchargeRateMpct),
  };
}

function cardDetails(t: Transaction) {
  const creditDebit = CREDIT_DEBIT_NAMES[t.creditDebitTypeId ?? 3] ?? 'Unknown';
  return {
    paymentMethodId: t.paymentMethodId,
    maskedCardNumber: t.panMask,
    cardBrand: CARD_TYPE_NAMES[t.cardTypeId ?? 0] ?? 'Unknown',
    // The published clash: `cardType` is credit or debit here, the brand in the older revision (docs/api-v2.md).
    cardType: creditDebit,
    creditDebitType: creditDebit,
    cardProcessedAsType: creditDebit,
    cardDataSource: CARD_DATA_SOURCE_NAMES[t.cardDataSourceId ?? CardDataSource.Internet] ?? 'Internet',
    cardholderVerificationMethod: verification(t),
    emvTags: null,
  };
}

function achDetails(t: Transaction, entry: AchEntry) {
  return {
    paymentMethodId: t.paymentMethodId,
    accountRoutingNumber: entry.routingNumber,
    isSameDayProcessing: entry.isFasterProcessing,
    requesterIpAddress: entry.requesterIp,
  };
}

/** The published fields of a transaction, to lay over the older detail (a superset but for `cardDetails.cardType`). */
export function publishedTransactionFields<C extends object, A extends object>(
  t: Transaction,
  entry: AchEntry | undefined,
  older: {
    status: string;
    avsResponse: ReturnType<typeof avs>;
    cardDetails: C | null;
    achDetails: A | null;
  },
) {
  // A captured card payment, or an ACH debit once the bank cleared it, can be refunded (what is left of it).
  const refundable =
    t.capturedCents > 0 && !t.voidedAt && (t.method === 'card' || t.statusId === TransactionStatus.Cleared);
  const isRefund = t.originalTransactionId !== null;
  const declined = t.statusId === TransactionStatus.Declined || t.statusId === TransactionStatus.Failed;
  return {
    // The published name of a bank payment is ACH; the older revision's ElectronicCheck (a clash: docs/api-v2.md).
    paymentMethodType: t.method === 'ach' ? ('ACH' as const) : ('Card' as const),
    transactionStatus: older.status,
    transactionType: TYPE_NAMES[t.typeId] ?? 'Sale',
    cardTokenType: t.method === 'card' ? (TOKEN_TYPES[t.cardTokenTypeId ?? 1] ?? 'Local') : null,
    pricingType: t.cashDiscountCents > 0 ? 'Cash' : 'Card',
    merchantId: t.merchantId,
    paymentProcessorId: t.processorId,
    customerId: t.customerId,
    batchId: t.batchId,
    originalTransactionId: t.originalTransactionId,
    amountBreakdown: publishedBreakdown(t),
    cardDetails: older.cardDetails && { ...older.cardDetails, ...cardDetails(t) },
    achDetails: older.achDetails && entry ? { ...older.achDetails, ...achDetails(t, entry) } : null,
    processorDetails: { mid: null, tid: null, authCode: t.authCode, rrn: t.networkReference },
    refundDetails: isRefund
      ? { refundedAmount: 0, availableRefundAmount: 0, isFullyRefunded: null }
      : {
          refundedAmount: fromCents(t.refundedCents),
          availableRefundAmount: refundable ? fromCents(Math.max(0, t.capturedCents - t.refundedCents)) : 0,
          isFullyRefunded: t.capturedCents > 0 && t.refundedCents >= t.capturedCents,
        },
    declineDetails: declined ? { code: t.responseCode, message: t.responseMessage } : null,
    addressVerificationServiceResponse: older.avsResponse,
    source: {
      // The published name of the API-key source is ApiKey (the older, and the stored name, ApiToken).
      sourceType:
        t.createMethodId === CreateMethod.ApiToken ? 'ApiKey' : (CREATE_METHOD_NAMES[t.createMethodId] ?? 'ApiKey'),
      sourceId: t.sourceId,
      sourceName: null,
    },
  };
}
