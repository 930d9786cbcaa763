import { REFUND_TYPES, SALE_TYPES, TransactionStatus } from '../../payments/transactions.model.js';

/** Statuses counted as approved on the home page (sales volume, approvals, refunds). */
const APPROVED = [
  TransactionStatus.Authorized,
  TransactionStatus.Captured,
  TransactionStatus.Settled,
  TransactionStatus.PartiallyAuthorized,
  TransactionStatus.Refunded,
  TransactionStatus.Scheduled,
  TransactionStatus.Pending,
  TransactionStatus.Cleared,
];
const DECLINED = [TransactionStatus.Declined, TransactionStatus.Failed];

/**
 * The four figures of a set of `transaction_amounts` rows, as SQL select items: the same expressions for the kept
 * buckets and for the rows newer than them, so the two always add up to what one scan would say. Its parameters
 * are `volumeParams(first)`, numbered from `first`.
 */
export function volumeColumns(first: number): string {
  const [sale, refund, approved, declined] = [first, first + 1, first + 2, first + 3].map((n) => `$${n}`);
  return `COALESCE(sum(total_cents) FILTER (WHERE type_id = ANY(${sale}) AND status_id = ANY(${approved})), 0)::bigint AS sales,
       count(*) FILTER (WHERE type_id = ANY(${sale}) AND status_id = ANY(${approved}))::int AS approved,
       count(*) FILTER (WHERE status_id = ANY(${declined}))::int AS declined,
       COALESCE(sum(total_cents) FILTER (WHERE type_id = ANY(${refund}) AND status_id = ANY(${approved})), 0)::bigint AS refunds`;
}

export const volumeParams = (): unknown[] => [[...SALE_TYPES], [...REFUND_TYPES], APPROVED, DECLINED];
