import { createHash } from 'node:crypto';
import { fromCents } from '../../../platform/money.js';
import { STATUS_NAMES, type Transaction, TYPE_NAMES } from '../transactions.model.js';
import { type AchResponse, AchStatus } from './ach.model.js';

const DESCRIPTIONS: Record<number, string> = {
  [AchStatus.Scheduled]: 'Scheduled',
  [AchStatus.Held]: 'Held',
  [AchStatus.Cancelled]: 'Cancelled',
  [AchStatus.InProgress]: 'Submitted to the ACH network',
  [AchStatus.Cleared]: 'Cleared',
  [AchStatus.ChargedBack]: 'Returned',
  [AchStatus.Failed]: 'Failed',
  [AchStatus.Refunded]: 'Refunded',
};

export function achResponse(t: Transaction, typeId = t.typeId): AchResponse {
  return {
    transactionId: t.id,
    typeId,
    type: TYPE_NAMES[typeId]!,
    statusId: t.statusId,
    status: STATUS_NAMES[t.statusId]!,
    responseCode: t.responseCode ?? '00',
    responseDescription: t.detailsMessage ?? DESCRIPTIONS[t.statusId] ?? STATUS_NAMES[t.statusId]!,
    processedAmount: fromCents(t.totalCents),
  };
}

/** A stable 10-character company identification for an originator: "1" and 9 digits. */
export function companyIdentification(processorId: string): string {
  const digest = createHash('sha256').update(processorId).digest();
  return `1${String(digest.readUInt32BE(0) % 1_000_000_000).padStart(9, '0')}`;
}
