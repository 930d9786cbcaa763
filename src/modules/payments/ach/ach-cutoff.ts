import {
  type BatchHeader,
  type EntryDetail,
  type FileHeader,
  type FileTotals,
  NachaWriter,
  type ServiceClassCode,
} from '../../../connectors/ach/nacha.js';
import type { Clock } from '../../../platform/clock/clock.js';
import type { Tx } from '../../../platform/db/tx.js';
import { type DataKey, decryptWith } from '../../vault/data-keys.js';
import { AccountType } from '../../vault/vault.model.js';
import { eventsForEach } from '../transaction-events.js';
import { TX_COLUMNS, toTransaction } from '../transactions.repo.js';
import { AchStatus, AchType, SEC_CODES } from './ach.model.js';
import type { AchProcessorSettings } from './ach-schedule.js';

/** At most this many rows are read from the database per round trip while a file is written. */
const MAX_FETCH_ROWS = 2000;

/*
 * Why each statement reads the entries in a MATERIALIZED CTE and only then joins their transactions by primary key:
 * with the merchant's id a constant on both sides, PostgreSQL carries it over to `transactions` and may drive the join
 * from `transactions_merchant`. When the statistics predate a burst of the merchant's entries (a new merchant's first
 * big window) it estimates one row there and rescans it for every entry: 100,000 entries took 15 minutes instead of
 * 9 seconds. Behind the fence the only cheap way to a transaction is its primary key, whatever the statistics say
 * (test/http/ach-stale-statistics.test.ts reads the plans). A status the transactions must be in comes from behind
 * the fence for the same reason: as a constant it could match a partial index (`transactions_unresolved`).
 */
/** A file's entries (`a`, $1 file, $2 merchant), for a statement that joins their transactions. */
const FILE_ENTRIES = 'a AS MATERIALIZED (SELECT * FROM ach_entries WHERE merchant_id = $2 AND file_id = $1)';
const JOIN_TRANSACTIONS = 'JOIN transactions t ON t.id = a.transaction_id AND t.merchant_id = a.merchant_id';

/** A file's batches: one per SEC code and purpose (payments, refunds), in this order. */
const BATCH_ORDER = `a.sec_code, (t.type_id = ${AchType.Refund})`;

/** $1 processor, $2 window, $3 now, $4 file, $5 batch, $6 effective date, $7 ODFI id, $8 merchant. */
export const CLAIM_WINDOW_SQL = `WITH entries AS MATERIALIZED (
       SELECT a.transaction_id, a.merchant_id, a.sec_code, ${AchStatus.Scheduled}::smallint AS from_status
       FROM ach_entries a
       WHERE a.merchant_id = $8 AND a.processor_id = $1 AND a.window_at = $2 AND a.file_id IS NULL
     ), moved AS (
       UPDATE transactions t SET status_id = ${AchStatus.InProgress}, modified_at = $3, batch_id = $5
       FROM entries e
       WHERE t.id = e.transaction_id AND t.merchant_id = e.merchant_id AND t.status_id = e.from_status
       RETURNING t.id, t.type_id, e.sec_code
     ), ordered AS (
       SELECT m.id, row_number() OVER (ORDER BY m.sec_code, (m.type_id = ${AchType.Refund}), m.id) AS n FROM moved m
     ), traces AS (
       -- nextval runs in generate_series order, so the n-th entry gets the n-th number of the block.
       SELECT g.n, nextval('ach_trace_seq') AS v FROM generate_series(1, (SELECT count(*) FROM moved)) AS g(n)
     )
     UPDATE ach_entries a SET file_id = $4, effective_date = $6, trace_number = $7 || lpad(tr.v::text, 7, '0')
     FROM ordered o JOIN traces tr ON tr.n = o.n
     WHERE a.merchant_id = $8 AND a.transaction_id = o.id`;

/**
 * Moves the window's Scheduled entries into the file (a compare-and-set on their status: a void or hold that got
 * there first keeps its entry out) and gives them trace numbers in the order the file will list them. Set-based:
 * nothing per entry travels to this process. Returns how many entries the file has.
 */
export async function claimWindow(
  tx: Tx,
  c: {
    merchantId: string;
    processorId: string;
    window: Date;
    now: Date;
    fileId: string;
    batchId: string;
    odfiId: string;
    effective: string;
  },
): Promise<number> {
  const result = await tx.query(CLAIM_WINDOW_SQL, [
    c.processorId,
    c.window,
    c.now,
    c.fileId,
    c.batchId,
    c.effective,
    c.odfiId,
    c.merchantId,
  ]);
  return result.rowCount ?? 0;
}

/** A file's totals per batch ($1 file, $2 merchant). */
export const FILE_GROUPS_SQL = `WITH ${FILE_ENTRIES}
     SELECT a.sec_code, (t.type_id = ${AchType.Refund}) AS is_refund,
       COALESCE(sum(t.total_cents) FILTER (WHERE a.is_debit), 0)::text AS debit,
       COALESCE(sum(t.total_cents) FILTER (WHERE NOT a.is_debit), 0)::text AS credit
     FROM a ${JOIN_TRANSACTIONS} GROUP BY 1, 2 ORDER BY 1, 2`;

/** A file's entries in the order it lists them ($1 file, $2 merchant). */
export const FILE_ENTRIES_SQL = `WITH ${FILE_ENTRIES}
     SELECT ${TX_COLUMNS}, a.sec_code, a.is_debit, a.routing_number, a.account_type_id, a.receiver_name,
       a.trace_number, a.account_sealed, a.data_key_version AS entry_key_version
     FROM a ${JOIN_TRANSACTIONS} ORDER BY ${BATCH_ORDER}, t.id`;

interface Group {
  secCode: number;
  isRefund: boolean;
  debitCents: bigint;
  creditCents: bigint;
}

export interface CutoffFile {
  fileId: string;
  merchantId: string;
  header: FileHeader;
  /** Everything of a batch header but what depends on the batch's entries. */
  batchHeader: (secCode: BatchHeader['secCode'], description: string) => Omit<BatchHeader, 'serviceClassCode'>;
  settings: AchProcessorSettings;
  dataKey: (version: number) => Promise<DataKey>;
  /** Stores the next part of the file's text. */
  append: (text: string) => Promise<void>;
  clock: Clock;
  /** A part is stored once this many records are waiting. */
  recordsPerPart: number;
}

/**
 * Writes the NACHA file of claimed entries, streaming: a cursor reads a slice of entries at a time and each
 * `recordsPerPart` records are stored as a part, so memory is flat however large the window. Each fetched slice of
 * entries also gets its `transaction.ach.in_progress` events in one insert.
 */
export async function writeCutoffFile(tx: Tx, f: CutoffFile): Promise<FileTotals> {
  const { rows: groupRows } = await tx.query<{
    sec_code: number;
    is_refund: boolean;
    debit: string;
    credit: string;
  }>(FILE_GROUPS_SQL, [f.fileId, f.merchantId]);
  const groups: Group[] = groupRows.map((g) => ({
    secCode: g.sec_code,
    isRefund: g.is_refund,
    debitCents: BigInt(g.debit),
    creditCents: BigInt(g.credit),
  }));

  let chunk: string[] = [];
  const writer = new NachaWriter((record) => chunk.push(record));
  const flush = async () => {
    const text = chunk.join('');
    chunk = [];
    await f.append(text);
  };
  const keys = new Map<number, DataKey>();

  writer.fileHeader(f.header);
  await tx.query(`DECLARE ach_cutoff NO SCROLL CURSOR FOR ${FILE_ENTRIES_SQL}`, [f.fileId, f.merchantId]);
  let groupIndex = -1;
  let group: Group | undefined;
  for (;;) {
    const { rows } = await tx.query(`FETCH ${Math.min(MAX_FETCH_ROWS, f.recordsPerPart)} FROM ach_cutoff`);
    if (rows.length === 0) break;
    for (const row of rows) {
      const isRefund = row.type_id === AchType.Refund;
      if (!group || row.sec_code !== group.secCode || isRefund !== group.isRefund) {
        if (group) await endBatch(tx, writer, f, group);
        group = groups[++groupIndex];
        if (!group || group.secCode !== row.sec_code || group.isRefund !== isRefund) {
          throw new Error('internal: the file changed while it was written');
        }
        writer.startBatch(batchHeaderOf(f, group));
      }
      const version = row.entry_key_version as number;
      let key = keys.get(version);
      if (!key) {
        key = await f.dataKey(version);
        keys.set(version, key);
      }
      const secCode = SEC_CODES[row.sec_code as number]!;
      writer.entry({
        transactionCode: transactionCode(row.is_debit, row.account_type_id),
        rdfiRoutingNumber: row.routing_number,
        accountNumber: decryptWith(key, row.account_sealed, row.id),
        amountCents: Number(row.total_cents),
        individualId: (row.id as string).replace(/-/g, '').slice(-15).toUpperCase(),
        individualName: row.receiver_name,
        discretionaryData: secCode === 'WEB' || secCode === 'TEL' ? 'S' : '',
        traceNumber: row.trace_number,
        addenda: secCode === 'CCD' ? [{ type: '05', paymentInfo: `TESSERA ${row.id}` }] : undefined,
      });
    }
    await tx.query(
      eventsForEach(
        f.clock,
        'transaction.ach.in_progress',
        rows.map((row) => toTransaction(row)),
      ),
    );
    if (chunk.length >= f.recordsPerPart) await flush();
  }
  await tx.query('CLOSE ach_cutoff');
  if (group) await endBatch(tx, writer, f, group);
  const totals = writer.finish();
  await flush();
  return totals;
}

function batchHeaderOf(f: CutoffFile, group: Group): BatchHeader {
  const offset = f.settings.balancedFile && group.debitCents !== group.creditCents;
  const serviceClassCode: ServiceClassCode =
    offset || (group.debitCents > 0n && group.creditCents > 0n) ? 200 : group.creditCents === 0n ? 225 : 220;
  return {
    ...f.batchHeader(SEC_CODES[group.secCode]!, group.isRefund ? 'REFUND' : 'PAYMENT'),
    serviceClassCode,
  };
}

/** Closes a batch; in a balanced file, first the entry that moves its difference through the settlement account. */
async function endBatch(tx: Tx, writer: NachaWriter, f: CutoffFile, group: Group): Promise<void> {
  const difference = group.debitCents - group.creditCents;
  if (f.settings.balancedFile && difference !== 0n) {
    const { rows } = await tx.query<{ v: string }>(`SELECT nextval('ach_trace_seq')::text AS v`);
    const entry: EntryDetail = {
      // More debits than credits: the offset credits the settlement account (22), and the other way round (27).
      transactionCode: difference > 0n ? 22 : 27,
      rdfiRoutingNumber: f.settings.offsetRoutingNumber,
      accountNumber: f.settings.offsetAccountNumber,
      amountCents: Number(difference > 0n ? difference : -difference),
      individualId: 'OFFSET',
      individualName: f.header.originName, // the originator: its own settlement account
      traceNumber: `${f.settings.odfiRoutingNumber.slice(0, 8)}${rows[0]!.v.padStart(7, '0')}`,
    };
    writer.entry(entry);
  }
  writer.endBatch();
}

/** Prenote-free transaction codes: checking 22 credit / 27 debit, savings 32 / 37. */
function transactionCode(isDebit: boolean, accountTypeId: number): number {
  return (accountTypeId === AccountType.Savings ? 30 : 20) + (isDebit ? 7 : 2);
}
