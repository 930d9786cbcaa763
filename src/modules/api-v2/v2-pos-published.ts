// The published revision's POS transaction (`posTransactionStatus`, `baseAmount`, `extraAmounts`, `captureMethod`,
// `linkedTransaction`), laid over the older names; derived from the same POS row and its payment.
import { fromCents, fromMillipercent } from '../../platform/money.js';
import { PosStatus, type PosTransaction, PosType } from '../pos/pos.model.js';

export const PUBLISHED_POS_STATUSES = ['InProgress', 'Completed', 'Cancelled', 'Failed'] as const;
type PublishedStatus = (typeof PUBLISHED_POS_STATUSES)[number];

/**
 * The published status of each older one: a declined payment is a Completed POS transaction (its outcome is on
 * `linkedTransaction`), as the published document says.
 */
const PUBLISHED_STATUS: Record<number, PublishedStatus> = {
  [PosStatus.TerminalConnecting]: 'InProgress',
  [PosStatus.TransactionProcessing]: 'InProgress',
  [PosStatus.TransactionSentToProcessor]: 'InProgress',
  [PosStatus.Completed]: 'Completed',
  [PosStatus.DeclinedByProcessor]: 'Completed',
  [PosStatus.CancelByPos]: 'Cancelled',
  [PosStatus.CancelByTerminal]: 'Cancelled',
  [PosStatus.Error]: 'Failed',
  [PosStatus.Inconsistency]: 'Failed',
  [PosStatus.TerminalOffline]: 'Failed',
};

/** The older statuses a published status filter matches. */
export function statusIdsOf(status: PublishedStatus): number[] {
  return Object.entries(PUBLISHED_STATUS)
    .filter(([, name]) => name === status)
    .map(([id]) => Number(id));
}

/** The published fields of a POS transaction; `linkedTransaction` is its payment's published detail once made. */
export function publishedPosFields(p: PosTransaction, linkedTransaction: unknown) {
  return {
    posTransactionId: p.id,
    posTransactionStatus: PUBLISHED_STATUS[p.statusId] ?? 'Failed',
    createdOn: p.createdAt.toISOString(),
    modifiedOn: p.modifiedAt.toISOString(),
    merchantId: p.merchantId,
    customerId: p.customerId,
    terminalId: p.terminalId,
    paymentProcessorId: p.processorId,
    posDeviceId: p.posDeviceId,
    referenceId: p.referenceId,
    captureMethod: p.typeId === PosType.Authorization ? 'Manual' : 'Auto',
    transactionId: p.transactionId,
    baseAmount: p.amountCents === null ? null : fromCents(p.amountCents),
    currencyCode: 'USD',
    extraAmounts: {
      tipAmount: p.tipCents === null ? null : fromCents(p.tipCents),
      tipRate: p.tipRateMpct === null ? null : fromMillipercent(p.tipRateMpct),
      discountAmount: null,
      discountRate: null,
      surchargeRate: null,
    },
    processedAmount: processedAmount(linkedTransaction),
    linkedTransaction: linkedTransaction ?? null,
  };
}

function processedAmount(linked: unknown): number | null {
  if (!linked || typeof linked !== 'object') return null;
  const value = (linked as { processedAmount?: unknown }).processedAmount;
  return typeof value === 'number' ? value : null;
}
