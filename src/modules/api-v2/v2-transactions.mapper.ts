import { fromCents, fromMillipercent } from '../../platform/money.js';
import { withFields } from '../../platform/objects.js';
import type { MerchantConfiguration } from '../merchants/merchants.model.js';
import { type AchResponse, AchType } from '../payments/ach/ach.model.js';
import type { OperationResult } from '../payments/card-payments.service.js';
import { type Transaction, TransactionStatus } from '../payments/transactions.model.js';

export function processorName(t: Transaction, configuration: MerchantConfiguration): string | null {
  return configuration.processors.find((p) => p.id === t.processorId)?.typeName ?? null;
}

/** The operation's result as v2 names it: Approved, Declined, Failed, or Pending while the outcome is unknown. */
function resultStatus(result: OperationResult): 'Pending' | 'Approved' | 'Declined' | 'Failed' {
  const kind = result.outcome?.kind;
  if (kind === 'approved') return 'Approved';
  if (kind === 'declined') return 'Declined';
  if (kind === 'failed') return 'Failed';
  if (kind === undefined) {
    const status = result.transaction.statusId;
    if (status === TransactionStatus.Declined) return 'Declined';
    if (status === TransactionStatus.Failed) return 'Failed';
    if (status === TransactionStatus.Pending || result.transaction.pendingOperation) return 'Pending';
    return 'Approved';
  }
  return 'Pending';
}

export function amountDetails(t: Transaction) {
  return {
    baseAmount: fromCents(t.baseCents),
    tipAmount: fromCents(t.tipCents),
    surchargeAmount: fromCents(t.surchargeCents),
    discountAmount: fromCents(t.percentageOffCents + t.cashDiscountCents),
  };
}

const rate = (mpct: number | null) => (mpct == null ? 0 : fromMillipercent(mpct));

/** A result's breakdown in both revisions' names (the published one adds the rates, in percent). */
function resultAmounts(t: Transaction) {
  return withFields(amountDetails(t), {
    tipRate: rate(t.tipRateMpct),
    discountRate: rate(t.percentageOffRateMpct ?? t.cashDiscountRateMpct),
  });
}

function processorResponse(result: OperationResult | null, t: Transaction, configuration: MerchantConfiguration) {
  const code = result?.outcome?.responseCode ?? t.responseCode;
  const message = result?.outcome?.message ?? t.responseMessage;
  return {
    processorName: processorName(t, configuration),
    responseCode: code,
    responseMessage: message,
    responseDefinition: t.detailsMessage ?? message,
  };
}

export function avs(t: Transaction) {
  return t.avsResponse
    ? { action: t.avsResponse.action, responseCode: t.avsResponse.responseCode, description: t.avsResponse.description }
    : null;
}

/** `POST /v2/transactions` and capture (TransactionResponseDto). */
export function transactionResult(result: OperationResult, configuration: MerchantConfiguration) {
  const t = result.transaction;
  const status = resultStatus(result);
  const processor = processorResponse(result, t, configuration);
  return {
    transactionId: t.id,
    transactionStatus: status,
    processedAmount: fromCents(result.processedCents),
    currencyCode: 'USD',
    amountDetails: resultAmounts(t),
    processorResponse: processor,
    responseDetails:
      status === 'Declined' || status === 'Failed'
        ? { code: processor.responseCode, message: processor.responseMessage, source: 'PROCESSOR' }
        : null,
    avsResponse: avs(t),
    addressVerificationServiceResponse: avs(t),
    receipt: null,
  };
}

/** Reversal (ReversalOperationResponseDto): the operation's result, without the breakdown. */
export function reversalResult(result: OperationResult, configuration: MerchantConfiguration) {
  const t = result.transaction;
  return {
    transactionId: t.id,
    transactionStatus: resultStatus(result),
    processedAmount: fromCents(result.processedCents),
    currencyCode: 'USD',
    processorResponse: processorResponse(result, t, configuration),
  };
}

function achProcessorResponse(r: AchResponse, t: Transaction, configuration: MerchantConfiguration) {
  return {
    processorName: processorName(t, configuration),
    responseCode: r.responseCode,
    responseMessage: r.responseDescription,
    responseDefinition: r.responseDescription,
  };
}

/**
 * An ACH operation's result as v2 names it: Declined or Failed when refused at once; Pending while money is still to
 * move (a debit, credit or refund waits for its file); Approved when the move itself was the operation (hold, release,
 * void).
 */
function achStatus(t: Transaction, moved: boolean): 'Pending' | 'Approved' | 'Declined' | 'Failed' {
  if (t.statusId === TransactionStatus.Declined) return 'Declined';
  if (t.statusId === TransactionStatus.Failed) return 'Failed';
  return moved ? 'Approved' : 'Pending';
}

/** An ACH debit's answer: Pending until the bank clears it (or Declined when it was refused at once). */
export function achResult(debit: AchResponse, t: Transaction, configuration: MerchantConfiguration) {
  const status = achStatus(t, false);
  const processor = achProcessorResponse(debit, t, configuration);
  return {
    transactionId: t.id,
    transactionStatus: status,
    processedAmount: debit.processedAmount,
    currencyCode: 'USD',
    amountDetails: resultAmounts(t),
    processorResponse: processor,
    responseDetails:
      status === 'Pending'
        ? null
        : { code: debit.responseCode, message: debit.responseDescription, source: 'PROCESSOR' },
    avsResponse: null,
    addressVerificationServiceResponse: null,
    receipt: null,
  };
}

/** An ACH credit, void or refund (ReversalOperationResponseDto); `t` is the transaction the answer names. */
export function achReversalResult(
  r: AchResponse,
  t: Transaction,
  configuration: MerchantConfiguration,
  kind: 'void' | 'money',
) {
  return {
    transactionId: t.id,
    transactionStatus: achStatus(t, kind === 'void'),
    processedAmount: r.processedAmount,
    currencyCode: 'USD',
    processorResponse: achProcessorResponse(r, t, configuration),
  };
}

/** Hold and release (HoldActionResponseDto). */
export function holdResult(r: AchResponse, t: Transaction, configuration: MerchantConfiguration) {
  return {
    transactionId: t.id,
    type: r.typeId === AchType.Hold ? ('Hold' as const) : ('UnHold' as const),
    transactionStatus: 'Approved' as const,
    processorResponse: achProcessorResponse(r, t, configuration),
  };
}
