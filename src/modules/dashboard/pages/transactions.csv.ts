import type { Readable } from 'node:stream';
import { csvStream } from '../../../platform/http/csv-export.js';
import { centsToDecimal } from '../../../platform/money.js';
import { STATUS_NAMES, type Transaction, TYPE_NAMES } from '../../payments/transactions.model.js';

const COLUMNS = ['id', 'createdAt', 'type', 'status', 'amount', 'card', 'reference', 'customer'] as const;

/** Transactions as CSV, row by row as they come: memory is one page whatever the export's size. */
export function transactionsCsv(rows: AsyncIterable<Transaction & { customerName: string | null }>): Readable {
  return csvStream(rows, COLUMNS, (t) => ({
    id: t.id,
    createdAt: t.createdAt.toISOString(),
    type: TYPE_NAMES[t.typeId] ?? String(t.typeId),
    status: STATUS_NAMES[t.statusId] ?? String(t.statusId),
    amount: centsToDecimal(t.totalCents),
    card: t.panMask ?? '',
    reference: t.referenceId ?? '',
    customer: t.customerName ?? '',
  }));
}
