import type { AchConnector } from '../../../connectors/ach/ach-connector.js';
import type { DropBoxSession } from '../../../connectors/ach/bank-drop-box.js';
import type { Clock } from '../../../platform/clock/clock.js';
import type { Pool, Sql } from '../../../platform/db/pool.js';
import type { Tx } from '../../../platform/db/tx.js';
import { NotFoundError } from '../../../platform/http/errors.js';
import { defineQueue } from '../../../platform/jobs/define.js';
import type { Logger } from '../../../platform/observability/logger.js';
import type { CustomersService } from '../../customers/customers.service.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { MerchantsService } from '../../merchants/merchants.service.js';
import type { SettlementsService } from '../../settlements/settlements.service.js';
import type { VaultService } from '../../vault/vault.service.js';
import type { PaymentSourceListeners } from '../source-listeners.js';
import { type TransactionEventType, transactionEvents } from '../transaction-events.js';
import type { Transaction } from '../transactions.model.js';
import { AchFileStore } from './ach-file-store.js';
import { type AchProcessorSettings, achSettingsOf } from './ach-schedule.js';
import { BankFileStore } from './exchange/bank-file-store.js';

/** A processor's cutoff window (one job per window): its Scheduled entries go into one NACHA file. */
export const achCutoffQueue = defineQueue<{ processorId: string; window: string }>('ach.cutoff');
/** Sends a file to the bank. */
export const achSubmitQueue = defineQueue<{ fileId: string }>('ach.submit-file');
/** A file's settlement date: its entries clear. */
export const achClearQueue = defineQueue<{ fileId: string }>('ach.clear-file');
/** Two business days later: the bank's returns, then the file's batch settles. */
export const achReturnsQueue = defineQueue<{ fileId: string }>('ach.collect-returns');
/** A bank connection's file of a window, to its drop box (exchange/deliver.ts). */
export const achDeliverQueue = defineQueue<{ bankFileId: string }>('ach.deliver-bank-file');
/** What a bank connection's drop box has for us (exchange/collect.ts): one job per connection, chained. */
export const achCollectQueue = defineQueue<{ connectionKey: string }>('ach.collect-bank-files');

export interface AchDeps {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  merchants: MerchantsService;
  customers: CustomersService;
  vault: VaultService;
  ledger: Ledger;
  settlements: SettlementsService;
  connector(name: string): AchConnector;
  /** A session with a file-exchange processor's bank drop box (nacha-sftp), under the bank deadline. */
  withDropBox<T>(connector: string, processorId: string, work: (session: DropBoxSession) => Promise<T>): Promise<T>;
  /** Counts what an operator is alerted to (metrics). */
  alerts?: {
    deliveryFailed(connectionKey: string, reason: string): void;
    bankFile(direction: 'outbound' | 'inbound', state: string): void;
  };
  /** How long an inbound file must keep its size to be read (ACH_INBOUND_SETTLE_MS). */
  inboundSettleMs?: number;
  /** This process's node liveness id: a bank file being delivered is claimed for it. */
  nodeId?: () => number;
  /** The payment sources told when their debits clear or come back. */
  sources: PaymentSourceListeners;
  /** Records per stored part of a NACHA file (and entries per read while one is written). */
  filePartRecords?: number;
}

/** What every ACH operation shares: its dependencies, the file store, and the steps they take the same way. */
export class AchContext {
  readonly files: AchFileStore;
  readonly bankFiles: BankFileStore;

  constructor(readonly deps: AchDeps) {
    this.files = new AchFileStore(deps.pool, deps.vault.dataKeys);
    this.bankFiles = new BankFileStore(deps.vault.dataKeys);
  }

  get clock(): Clock {
    return this.deps.clock;
  }

  /** The ACH settings of a processor: its cutoff windows, bank details and time zone. */
  async processorSettings(processorId: string, sql: Sql = this.deps.pool): Promise<AchProcessorSettings> {
    const processor = await this.deps.merchants.processorWithSettings(processorId, sql);
    if (processor?.method !== 'ach') throw new NotFoundError('PaymentProcessor', processorId);
    return achSettingsOf(processor.settings.ach);
  }

  /** A cutoff job for the processor's window (one per window, whoever schedules it first). */
  async scheduleCutoff(tx: Sql, processorId: string, windowAt: Date): Promise<void> {
    await achCutoffQueue.enqueue(
      tx,
      this.clock,
      { processorId, window: windowAt.toISOString() },
      { runAt: windowAt, singletonKey: `${processorId}|${windowAt.toISOString()}` },
    );
  }

  /** An ACH file's row: whose it is and whether it was sent. */
  async fileRow(id: string) {
    const { rows } = await this.deps.pool.query<{
      id: string;
      merchant_id: string;
      processor_id: string;
      submitted_at: Date | null;
      bank_file_id: string | null;
    }>(
      // A file's jobs name only the file; everything after this reads as its merchant.
      `SELECT /* across merchants: found by file id */
         id, merchant_id, processor_id, submitted_at, bank_file_id FROM ach_files WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  /** The transaction's event, written with COMMIT. */
  event(tx: Tx, type: TransactionEventType, t: Transaction, extra: Record<string, unknown> = {}): void {
    tx.defer(transactionEvents(this.clock, type, t, extra));
  }
}
