import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { STATUS_NAMES, type Transaction, TYPE_NAMES } from '../../payments/transactions.model.js';

const COLUMNS = ['id', 'createdAt', 'type', 'status', 'amount', 'card', 'reference', 'customer'] as const;

/** Spreadsheet programs run cells that start with these as formulas; a leading quote keeps them text. */
function csvSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** Cents as a decimal string, exactly (never through a float). */
export function decimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Transactions as CSV, row by row as they come: memory is one page whatever the export's size. */
export function transactionsCsv(rows: AsyncIterable<Transaction & { customerName: string | null }>): Readable {
  const csv = stringify({ header: true, columns: [...COLUMNS], cast: { string: csvSafe } });
  const source = Readable.from(
    (async function* () {
      for await (const t of rows) {
        yield {
          id: t.id,
          createdAt: t.createdAt.toISOString(),
          type: TYPE_NAMES[t.typeId] ?? String(t.typeId),
          status: STATUS_NAMES[t.statusId] ?? String(t.statusId),
          amount: decimal(t.totalCents),
          card: t.panMask ?? '',
          reference: t.referenceId ?? '',
          customer: t.customerName ?? '',
        };
      }
    })(),
  );
  source.on('error', (error) => csv.destroy(error));
  return source.pipe(csv);
}
