// `GET /v2/transactions/{id}` and the list (GetTransactionResponseDto): the aggregated status, the bank side of an
// ACH transaction, and the operations it went through, derived from its row and its refunds' rows.
import { CARD_TYPE_NAMES, CREDIT_DEBIT_NAMES } from '../../connectors/card/card-numbers.js';
import { fromCents } from '../../platform/money.js';
import type { MerchantConfiguration } from '../merchants/merchants.model.js';
import { type AchEntry, AchStatus, AchType, SEC_CODE_NAMES } from '../payments/ach/ach.model.js';
import { STATUS_NAMES, type Transaction, TransactionStatus, TransactionType } from '../payments/transactions.model.js';
import { ACCOUNT_HOLDER_TYPE_NAMES, ACCOUNT_TYPE_NAMES } from '../vault/vault.model.js';
import { publishedTransactionFields } from './v2-transaction-published.js';
import { amountDetails, avs, processorName } from './v2-transactions.mapper.js';

type EventType =
  | 'Authorization'
  | 'Sale'
  | 'Capture'
  | 'Void'
  | 'Refund'
  | 'TipAdjustment'
  | 'CardAuthentication'
  | 'Credit';
type EventStatus = 'Pending' | 'Approved' | 'Declined' | 'Failed';

/** What the row's first operation was called in the v2 event list. */
const FIRST_EVENT: Record<number, EventType> = {
  [TransactionType.Authorization]: 'Authorization',
  [TransactionType.Sale]: 'Sale',
  [TransactionType.CardAuthentication]: 'CardAuthentication',
  [TransactionType.RefundWORef]: 'Credit',
  [TransactionType.Refund]: 'Refund',
  [AchType.Debit]: 'Sale',
  [AchType.Refund]: 'Refund',
  [AchType.Credit]: 'Credit',
};

/** Money an ACH entry moved only once the bank cleared it; until then (and if cancelled first) it is Pending. */
const ACH_DONE: ReadonlySet<number> = new Set([AchStatus.Cleared, AchStatus.Refunded, AchStatus.ChargedBack]);

function firstStatus(t: Transaction): EventStatus {
  if (t.statusId === TransactionStatus.Declined) return 'Declined';
  if (t.statusId === TransactionStatus.Failed) return 'Failed';
  if (t.method === 'ach') return ACH_DONE.has(t.statusId) ? 'Approved' : 'Pending';
  return t.statusId === TransactionStatus.Pending ? 'Pending' : 'Approved';
}

/** The aggregated status; an ACH entry in the bank's hands reads InProgress (the v2 name), not Pending. */
function aggregatedStatus(t: Transaction): string {
  if (t.method === 'ach' && t.statusId === AchStatus.InProgress) return 'InProgress';
  return STATUS_NAMES[t.statusId] ?? 'Informational';
}

interface OlderEvent {
  type: EventType;
  status: EventStatus;
  amount: number;
  dateTime: string;
  processorResponse: {
    processorName: string | null;
    responseCode: string | null;
    responseMessage: string | null;
    responseDefinition: string | null;
  };
}

/** An event in both revisions' names (TxEvent of the published one beside the older TransactionEventDto). */
function publishedEvent(t: Transaction, e: OlderEvent) {
  const follows = e.type === 'Capture' || e.type === 'Void' || e.type === 'Refund' || e.type === 'TipAdjustment';
  return {
    ...e,
    transactionEventType: e.type,
    transactionEventStatus: e.status,
    transactionEventDateTime: e.dateTime,
    processedAmount: e.amount,
    originalTransactionId: follows ? t.id : null,
    declineDetails:
      e.status === 'Declined' || e.status === 'Failed'
        ? { code: e.processorResponse.responseCode, message: e.processorResponse.responseMessage }
        : null,
  };
}

function events(t: Transaction, refunds: Transaction[], configuration: MerchantConfiguration) {
  const name = processorName(t, configuration);
  const response = (row: Transaction) => ({
    processorName: name,
    responseCode: row.responseCode,
    responseMessage: row.responseMessage,
    responseDefinition: row.detailsMessage ?? row.responseMessage,
  });
  const followUp = { processorName: name, responseCode: null, responseMessage: null, responseDefinition: null };
  const list = [
    {
      type: FIRST_EVENT[t.typeId] ?? 'Sale',
      status: firstStatus(t),
      amount: fromCents(t.authorizedCents || t.totalCents),
      dateTime: t.createdAt.toISOString(),
      processorResponse: response(t),
    },
  ] as OlderEvent[];
  if (t.typeId === TransactionType.Authorization && t.capturedAt) {
    list.push({
      type: 'Capture',
      status: 'Approved',
      amount: fromCents(t.capturedCents),
      dateTime: t.capturedAt.toISOString(),
      processorResponse: followUp,
    });
  }
  if (t.voidedAt) {
    list.push({
      type: 'Void',
      status: 'Approved',
      amount: fromCents(t.authorizedCents || t.totalCents),
      dateTime: t.voidedAt.toISOString(),
      processorResponse: followUp,
    });
  }
  for (const refund of refunds) {
    list.push({
      type: 'Refund',
      status: firstStatus(refund),
      amount: fromCents(refund.totalCents),
      dateTime: refund.createdAt.toISOString(),
      processorResponse: response(refund),
    });
  }
  return list;
}

function achDetails(entry: AchEntry) {
  return {
    maskedAccountNumber: entry.accountMask,
    maskedRoutingNumber: `****${entry.routingNumber.slice(-4)}`,
    accountHolderType: ACCOUNT_HOLDER_TYPE_NAMES[entry.accountHolderTypeId] ?? null,
    accountType: ACCOUNT_TYPE_NAMES[entry.accountTypeId] ?? null,
    secCode: SEC_CODE_NAMES[entry.secCode] ?? null,
  };
}

/**
 * A transaction in the published revision's names laid over the older ones; `older` answers the older revision alone
 * (its `cardDetails.cardType` is the brand, where the published one is credit or debit: docs/api-v2.md).
 */
export function transactionDetail(
  t: Transaction,
  related: { configuration: MerchantConfiguration; entry: AchEntry | undefined; refunds: Transaction[] },
  revision: 'published' | 'older' = 'published',
) {
  const older = olderDetail(t, related);
  if (revision === 'older') return older;
  return {
    ...older,
    ...publishedTransactionFields(t, related.entry, older),
    transactionEvents: older.transactionEvents.map((e) => publishedEvent(t, e)),
  };
}

function olderDetail(
  t: Transaction,
  related: { configuration: MerchantConfiguration; entry: AchEntry | undefined; refunds: Transaction[] },
) {
  const moved = t.capturedCents > 0 ? t.capturedCents - t.refundedCents : t.authorizedCents;
  return {
    transactionId: t.id,
    transactionDateTime: t.createdAt.toISOString(),
    status: aggregatedStatus(t),
    paymentMethodType: t.method === 'ach' ? ('ElectronicCheck' as const) : ('Card' as const),
    referenceId: t.referenceId,
    processedAmount: fromCents(moved),
    currencyCode: 'USD',
    amountBreakdown: amountDetails(t),
    avsResponse: avs(t),
    cardDetails:
      t.method === 'card'
        ? {
            maskedCardNumber: t.panMask,
            cardType: CARD_TYPE_NAMES[t.cardTypeId ?? 0] ?? 'Unknown',
            creditDebitType: CREDIT_DEBIT_NAMES[t.creditDebitTypeId ?? 3] ?? 'Unknown',
          }
        : null,
    achDetails: related.entry ? achDetails(related.entry) : null,
    transactionEvents: events(t, related.refunds, related.configuration),
  };
}
