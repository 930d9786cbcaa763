import type { Static } from 'typebox';
import { ValidationError } from '../../platform/http/errors.js';
import { fromCents, optionalCents, optionalMillipercent, toCents, toMillipercent } from '../../platform/money.js';
import { withFields } from '../../platform/objects.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { receipt, transactionView } from '../payments/transactions.mapper.js';
import { CARD_DATA_SOURCE_NAMES } from '../payments/transactions.model.js';
import type { TransactionsService } from '../payments/transactions.service.js';
import { isFinal, POS_STATUS_NAMES, POS_TYPE_NAMES, type PosTransaction, PosType, ReadingMethod } from './pos.model.js';
import type { CreatePosBody } from './pos.schemas.js';
import type { PosDraft } from './pos.service.js';

type Body = Static<typeof CreatePosBody>;

export function posDraft(merchantId: string, body: Body): PosDraft {
  return {
    merchantId,
    terminalId: body.terminalId,
    typeId: body.transactionTypeId ?? PosType.Sale,
    amountCents: optionalCents(body.amount),
    tipCents: optionalCents(body.tipAmount),
    tipRateMpct: optionalMillipercent(body.tipRate),
    currencyId: body.currencyId ?? 1,
    posDeviceId: body.posDeviceId?.trim() || null,
    referenceId: body.referenceId?.trim() || null,
    processorId: body.paymentProcessorId ?? null,
    customerId: body.customerId ?? null,
    targetTransactionId: body.targetTransactionId ?? null,
    readingMethodId: readingMethodOf(body),
    requestStorageConsent: body.requestPaymentMethodStorageConsent ?? false,
  };
}

/** `readingMethodId`, or `readingMethod` by id or label (rule 4 of the first document names it so); they must agree. */
function readingMethodOf(body: Body): number {
  const named = body.readingMethod;
  const fromName =
    named == null
      ? null
      : typeof named === 'number'
        ? named
        : named === 'KeyedIn' || named === 'KeyedEntry'
          ? ReadingMethod.KeyedIn
          : ReadingMethod.Reading;
  const byId = body.readingMethodId ?? null;
  if (fromName !== null && byId !== null && fromName !== byId) {
    throw ValidationError.field('readingMethod', "'readingMethod' and 'readingMethodId' name different methods.");
  }
  return fromName ?? byId ?? ReadingMethod.Reading;
}

/** Create and cancel answer this short form. */
export function posCreatedView(p: PosTransaction) {
  return { posTransactionId: p.id, status: POS_STATUS_NAMES[p.statusId]!, statusId: p.statusId };
}

export function posListItem(p: PosTransaction) {
  return {
    id: p.id,
    createdOn: p.createdAt.toISOString(),
    terminalId: p.terminalId,
    posDeviceId: p.posDeviceId,
    posTransactionStatusId: p.statusId,
    posTransactionStatus: POS_STATUS_NAMES[p.statusId]!,
    transactionId: p.transactionId,
    amount: p.amountCents === null ? null : fromCents(p.amountCents),
    currencyId: p.currencyId,
    targetTransactionId: p.targetTransactionId,
    transactionTypeId: p.typeId,
    transactionType: POS_TYPE_NAMES[p.typeId]!,
    isCompleted: isFinal(p.statusId),
  };
}

/** The single record: the list fields plus the payment it made and its receipt. */
export async function posView(
  p: PosTransaction,
  deps: { merchants: MerchantsService; transactions: TransactionsService },
) {
  const t = p.transactionId ? await deps.transactions.get(p.merchantId, p.transactionId) : undefined;
  let transaction = null;
  let transactionReceipt = null;
  if (t) {
    const [configuration, contacts] = await Promise.all([
      deps.merchants.getConfiguration(p.merchantId),
      deps.merchants.getContacts(p.merchantId),
    ]);
    transaction = transactionView(t, configuration, contacts.find((c) => c.isMain) ?? contacts[0]);
    transactionReceipt = receipt(t, configuration.companyName);
  }
  return withFields(posListItem(p), {
    cardDataSource: p.cardDataSourceId === null ? null : (CARD_DATA_SOURCE_NAMES[p.cardDataSourceId] ?? null),
    errorMessage: p.errorMessage,
    transaction,
    transactionReceipt,
  });
}
